import Foundation
import LiveGateKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Takes every report with a 201 and keeps what it took, in order. While `hold` is set, each request
/// waits until the test lets it through, so the test knows what is in flight and what still waits. Set
/// `failure` to play a device offline, or a gateway answering 429.
final class RecordingTransport: LiveGateTransport, @unchecked Sendable {
    struct Taken: Equatable {
        var route: String
        var fields: [String: String]
        /// The fields sent as JSON `null`.
        var nulls: Set<String> = []
        /// The fields sent as JSON `true` or `false`.
        var flags: [String: Bool] = [:]
    }

    enum Failure {
        case offline
        case throttled(retryAfterSeconds: Int)
    }

    private let lock = NSLock()
    private var taken: [Taken] = []
    private var arrived: [CheckedContinuation<Void, Never>] = []
    private var held: [CheckedContinuation<Void, Never>] = []
    private let holds: Bool

    init(holdsEachRequest: Bool = false) {
        holds = holdsEachRequest
    }

    private var failing: Failure?
    private var tries = 0

    var reports: [Taken] { lock.withLock { taken } }
    /// Every request made, answered or not.
    var attempts: Int { lock.withLock { tries } }
    var failure: Failure? {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    func perform(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if holds {
            await withCheckedContinuation { continuation in
                lock.withLock { held.append(continuation) }
            }
        }
        switch lock.withLock({
            tries += 1; return failing
        }) {
        case .offline:
            throw URLError(.cannotConnectToHost)
        case .throttled(let seconds):
            let response = HTTPURLResponse(
                url: request.url!, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": String(seconds)])!
            return (Data(#"{"message":"Rate limit exceeded"}"#.utf8), response)
        case nil:
            break
        }
        let object = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any] ?? [:]
        let fields = object.compactMapValues { $0 as? String }
        let nulls = Set(object.filter { $0.value is NSNull }.keys)
        let flags = object.filter { !($0.value is String) && !($0.value is NSNull) }.compactMapValues { $0 as? Bool }
        lock.withLock { taken.append(Taken(route: request.url?.path ?? "", fields: fields, nulls: nulls, flags: flags)) }
        let response = HTTPURLResponse(url: request.url!, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (Data(#"{"message":"success"}"#.utf8), response)
    }

    /// Lets the oldest held request through; waits (at most a minute) until one is held.
    func releaseOne() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let next = lock.withLock({ held.isEmpty ? nil : held.removeFirst() }) {
                next.resume()
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("no request arrived to let through")
    }

    /// Waits (at most a minute) until what was taken satisfies `done`.
    func waitUntil(_ done: ([Taken]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !done(reports) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits (at most a minute) until `count` reports were taken.
    func waitForReports(_ count: Int) async throws {
        try await waitUntil { $0.count >= count }
    }
}
