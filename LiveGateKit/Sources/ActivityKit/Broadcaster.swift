// Not part of Apple's ActivityKit: the stand-in's fan-out behind every sequence it hands out.

import Foundation

/// Gives each value to every iterator currently reading, so several consumers can iterate the same
/// ActivityKit sequence at once. With `replaysLatest`, a new iterator first gets the latest value (a
/// push token already issued). Once finished, every iterator ends and new ones end at once.
final class Broadcaster<Element: Sendable>: @unchecked Sendable {
    // Recursive: finishing a stream runs its termination handler, which removes it, on this thread.
    private let lock = NSRecursiveLock()
    private let replaysLatest: Bool
    private var latestValue: Element?
    private var isFinished = false
    private var nextID = 0
    private var continuations: [Int: AsyncStream<Element>.Continuation] = [:]

    init(replaysLatest: Bool) {
        self.replaysLatest = replaysLatest
    }

    /// The last value yielded since the start or the last `reset()`.
    var latest: Element? {
        lock.lock()
        defer { lock.unlock() }
        return latestValue
    }

    /// A new stream of the values yielded from now on (after the latest one, when replayed).
    func subscribe() -> AsyncStream<Element> {
        lock.lock()
        defer { lock.unlock() }
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        if isFinished {
            continuation.finish()
            return stream
        }
        if replaysLatest, let latestValue {
            continuation.yield(latestValue)
        }
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
        }
        return stream
    }

    /// Gives `value` to every current iterator; ignored once finished.
    func yield(_ value: Element) {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished else { return }
        latestValue = value
        for continuation in continuations.values {
            continuation.yield(value)
        }
    }

    /// Ends every iterator, now and to come.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished else { return }
        isFinished = true
        finishSubscribers()
    }

    /// Ends every current iterator and forgets the latest value; new iterators are served again.
    func reset() {
        lock.lock()
        defer { lock.unlock() }
        isFinished = false
        latestValue = nil
        finishSubscribers()
    }

    private func finishSubscribers() {
        let current = continuations
        continuations.removeAll()
        for continuation in current.values {
            continuation.finish()
        }
    }

    private func remove(_ id: Int) {
        lock.lock()
        defer { lock.unlock() }
        continuations[id] = nil
    }
}
