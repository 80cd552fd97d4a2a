import NIOConcurrencyHelpers
import NIOPosix

/// One connection of its own, outside the pool, for what lasts exactly as long as a server session
/// (a session-level advisory lock): the pool's connections come and go, this one stays until it breaks.
///
/// Its blocking calls run one at a time on a thread of its own. A broken connection is dropped and the
/// next call opens a new one, telling its body so (`isNew`), since whatever the old session held is gone.
/// The connection is touched only on that one thread, which makes `@unchecked Sendable` sound.
public final class PostgresSession: @unchecked Sendable {
    public let configuration: PostgresConfiguration
    private let thread = NIOThreadPool(numberOfThreads: 1)
    private enum ThreadState { case notStarted, running, closed }
    /// The thread starts on first use: a session never used needs no `close`.
    private let threadState = NIOLockedValueBox(ThreadState.notStarted)
    private var connection: PostgresConnection?

    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    /// Runs `body` on the session's connection, opening one first when there is none (or it broke), with
    /// the statements it runs due by `timeout` (from when the connection is open).
    public func withConnection<Result: Sendable>(
        timeout: PostgresCallTimeout = .configured,
        _ body: @escaping @Sendable (_ connection: PostgresConnection, _ isNew: Bool) throws -> Result
    ) async throws -> Result {
        try await runBlocking { [self] in
            let isNew = connection.map(\.isBroken) ?? true
            if isNew {
                connection = nil  // frees the broken one
                connection = try PostgresConnection.connect(configuration)
            }
            let open = connection!
            open.deadline = timeout.deadline(configuration)
            defer { open.deadline = nil }
            return try body(open, isNew)
        }
    }

    /// Waits up to `milliseconds` while the session stays open; false once it is gone (or was never opened).
    public func waitWhileOpen(milliseconds: Int32) async -> Bool {
        (try? await runBlocking { [self] in connection?.waitWhileOpen(milliseconds: milliseconds) ?? false }) ?? false
    }

    /// Ends the session (the server releases everything it held) and stops the thread; later calls fail.
    public func close() async {
        let previous = threadState.withLockedValue { state in
            defer { state = .closed }
            return state
        }
        guard previous == .running else { return }
        _ = try? await thread.runIfActive { [self] in connection = nil }
        try? await thread.shutdownGracefully()
    }

    private func runBlocking<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let open = threadState.withLockedValue { state in
            if state == .notStarted {
                thread.start()
                state = .running
            }
            return state == .running
        }
        guard open else { throw PostgresError(code: .poolClosed, message: "the session is closed") }
        do {
            return try await thread.runIfActive(work)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw PostgresError(code: .poolClosed, message: "the session is closed")
        }
    }
}
