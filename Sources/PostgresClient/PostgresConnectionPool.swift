import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// A bounded pool of libpq connections.
///
/// libpq blocks, so every call runs on the pool's own threads (one per connection), never on Swift's
/// cooperative pool. Callers wait asynchronously for a free connection. A connection that broke is
/// discarded together with the idle ones (after a server restart they are all stale), and a closure
/// whose very first statement found the connection broken runs once more on a new connection, since
/// nothing it sent can have taken effect.
public final class PostgresConnectionPool: Sendable {
    private enum Grant {
        case connection(PostgresConnection)
        case openNew
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Idle, handed out, and being opened.
        var openCount = 0
        var waiters: [CheckedContinuation<Grant, any Error>] = []
        var isClosed = false
    }

    public let configuration: PostgresConfiguration
    private let threadPool: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    private let logger: Logger
    private let metrics = PostgresPoolMetrics()

    public init(configuration: PostgresConfiguration, logger: Logger = Logger(label: "livegate.postgres")) {
        self.configuration = configuration
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: configuration.maximumConnections)
        self.threadPool.start()
    }

    /// Runs `body` with a connection of its own, on one of the pool's threads.
    public func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        var isRetry = false
        while true {
            let connection = try await acquire()
            connection.completedStatements = 0
            do {
                let result = try await runBlocking { try body(connection) }
                release(connection)
                return result
            } catch let error as PostgresError
                where !isRetry && connection.isBroken && connection.completedStatements == 0
            {
                logger.debug("postgres connection was broken; retrying on a new one", metadata: ["error": "\(error)"])
                release(connection)
                isRetry = true
            } catch {
                release(connection)
                throw error
            }
        }
    }

    /// Runs `body` inside BEGIN … COMMIT; any error rolls back.
    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        try await withConnection { connection in
            try connection.query("BEGIN")
            do {
                let result = try body(connection)
                try connection.query("COMMIT")
                return result
            } catch {
                if !connection.isBroken { _ = try? connection.query("ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs one parameterized statement.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) async throws -> PostgresRows {
        try await withConnection { try $0.query(sql, parameters) }
    }

    /// Closes idle connections, fails waiting callers and stops the threads. Connections still handed out
    /// are closed when they come back.
    public func close() async {
        let (idle, waiters) = state.withLockedValue { state in
            state.isClosed = true
            defer {
                state.openCount -= state.idle.count
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters {
            waiter.resume(throwing: PostgresError(code: .poolClosed, message: "the connection pool is closed"))
        }
        metrics.closed(idle.count)
        _ = idle  // freed here, when the last reference goes
        try? await threadPool.shutdownGracefully()
    }

    private func acquire() async throws -> PostgresConnection {
        let connection = try await grantedConnection()
        metrics.handedOut()
        return connection
    }

    private func grantedConnection() async throws -> PostgresConnection {
        let asked = ContinuousClock.now
        var waited = false
        defer { if waited { metrics.waited(ContinuousClock.now - asked) } }
        let grant = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Grant, any Error>) in
            let immediate: Result<Grant, PostgresError>? = state.withLockedValue { state in
                if state.isClosed {
                    return .failure(PostgresError(code: .poolClosed, message: "the connection pool is closed"))
                }
                if let connection = state.idle.popLast() { return .success(.connection(connection)) }
                if state.openCount < configuration.maximumConnections {
                    state.openCount += 1
                    return .success(.openNew)
                }
                state.waiters.append(continuation)
                return nil
            }
            if let immediate {
                continuation.resume(with: immediate)
            } else {
                waited = true
                metrics.queued()
            }
        }
        switch grant {
        case .connection(let connection):
            return connection
        case .openNew:
            do {
                let configuration = self.configuration
                let connection = try await runBlocking { try PostgresConnection.connect(configuration) }
                metrics.opened()
                return connection
            } catch {
                giveUpSlot()
                throw error
            }
        }
    }

    private func release(_ connection: PostgresConnection) {
        metrics.returned()
        let broken = connection.isBroken
        // `closed`: how many connections this release drops (freed when the last reference goes).
        let (waiter, grant, stale, closed): (CheckedContinuation<Grant, any Error>?, Grant?, [PostgresConnection], Int) =
            state.withLockedValue { state in
                if broken || state.isClosed {
                    // After a broken connection the idle ones are suspect too: drop them all.
                    let stale = broken ? state.idle : []
                    state.idle.removeAll()
                    state.openCount -= 1 + stale.count
                    guard !state.isClosed, !state.waiters.isEmpty else { return (nil, nil, stale, 1 + stale.count) }
                    state.openCount += 1
                    return (state.waiters.removeFirst(), .openNew, stale, 1 + stale.count)
                }
                if !state.waiters.isEmpty {
                    return (state.waiters.removeFirst(), .connection(connection), [], 0)
                }
                state.idle.append(connection)
                return (nil, nil, [], 0)
            }
        metrics.closed(closed)
        if !stale.isEmpty {
            logger.debug("dropping idle postgres connections after a broken one", metadata: ["count": "\(stale.count)"])
        }
        if let waiter, let grant { waiter.resume(returning: grant) }
    }

    /// A connection could not be opened: free its slot, and let a waiter try in its place.
    private func giveUpSlot() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Grant, any Error>? in
            state.openCount -= 1
            guard !state.isClosed, !state.waiters.isEmpty else { return nil }
            state.openCount += 1
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: .openNew)
    }

    private func runBlocking<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        do {
            return try await threadPool.runIfActive(work)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw PostgresError(code: .poolClosed, message: "the connection pool is closed")
        }
    }
}
