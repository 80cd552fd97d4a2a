import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// A bounded pool of libpq connections.
///
/// libpq blocks, so every call runs on the pool's own threads (one per connection), never on Swift's
/// cooperative pool. Callers wait asynchronously for a free connection. A connection that broke, missed
/// a deadline or found its server read-only is discarded together with the idle ones to the same server
/// (after a restart or a failover they are all stale; new ones find the current primary), and a closure
/// whose very first statement found the connection broken runs once more on a new connection, since
/// nothing it sent can have taken effect.
///
/// Every call has a deadline (`PostgresConfiguration.callTimeout` unless it asks for another): waiting
/// for a connection and every statement count against it, so a server that hangs costs each caller at
/// most that long, and hung connections free their slots by then.
public final class PostgresConnectionPool: Sendable {
    private enum Grant {
        case connection(PostgresConnection)
        case openNew
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Grant, any Error>
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Idle, handed out, and being opened.
        var openCount = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
    }

    public let configuration: PostgresConfiguration
    /// Where a call goes when this pool's server cannot be reached: a pool of reads on a standby falls
    /// back to the primary's. Only for pools whose calls are reads, which may run again elsewhere.
    public let fallback: PostgresConnectionPool?
    private let threadPool: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    private let logger: Logger
    private let metrics = PostgresPoolMetrics()

    public init(
        configuration: PostgresConfiguration, fallback: PostgresConnectionPool? = nil, logger: Logger = Logger(label: "livegate.postgres")
    ) {
        self.configuration = configuration
        self.fallback = fallback
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: configuration.maximumConnections)
        self.threadPool.start()
    }

    /// Runs `body` with a connection of its own, on one of the pool's threads, within `timeout`; on the
    /// `fallback` pool when this one's server cannot be reached.
    public func withConnection<Result: Sendable>(
        timeout: PostgresCallTimeout = .configured,
        _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        let deadline = timeout.deadline(configuration)
        guard let fallback else { return try await run(by: deadline, body) }
        // Half the time for this pool's server, so that the fallback has the rest when that server hangs.
        let ownShare = deadline.map { ContinuousClock.now + ($0 - .now) / 2 }
        do {
            return try await run(by: ownShare, body)
        } catch let error as PostgresError where error.isDatabaseUnavailable {
            logger.debug("postgres server unavailable; running the call on the fallback pool", metadata: ["error": "\(error)"])
            return try await PostgresDeadline.$current.withValue(deadline ?? PostgresDeadline.current) {
                try await fallback.withConnection(timeout: timeout, body)
            }
        }
    }

    private func run<Result: Sendable>(
        by deadline: ContinuousClock.Instant?, _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        var isRetry = false
        while true {
            let connection = try await acquire(by: deadline)
            connection.completedStatements = 0
            connection.deadline = deadline
            do {
                let result = try await runBlocking { try body(connection) }
                release(connection)
                return result
            } catch let error as PostgresError
                where !isRetry && error.code != .timedOut && connection.isBroken && connection.completedStatements == 0
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
        timeout: PostgresCallTimeout = .configured,
        _ body: @escaping @Sendable (PostgresConnection) throws -> Result
    ) async throws -> Result {
        try await withConnection(timeout: timeout) { connection in
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
    public func query(
        _ sql: String, _ parameters: [(any PostgresBindable)?] = [], timeout: PostgresCallTimeout = .configured
    ) async throws -> PostgresRows {
        try await withConnection(timeout: timeout) { try $0.query(sql, parameters) }
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
            waiter.continuation.resume(throwing: PostgresError(code: .poolClosed, message: "the connection pool is closed"))
        }
        metrics.closed(idle.count)
        _ = idle  // freed here, when the last reference goes
        try? await threadPool.shutdownGracefully()
    }

    private func acquire(by deadline: ContinuousClock.Instant?) async throws -> PostgresConnection {
        let connection = try await grantedConnection(by: deadline)
        metrics.handedOut()
        return connection
    }

    private func grantedConnection(by deadline: ContinuousClock.Instant?) async throws -> PostgresConnection {
        let asked = ContinuousClock.now
        var waited = false
        defer { if waited { metrics.waited(ContinuousClock.now - asked) } }
        let expiry = NIOLockedValueBox<Task<Void, Never>?>(nil)
        defer { expiry.withLockedValue { $0?.cancel() } }
        let grant = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Grant, any Error>) in
            let immediate: Result<Grant, PostgresError>?
            var queued: UInt64?
            (immediate, queued) = state.withLockedValue { state in
                if state.isClosed {
                    return (.failure(PostgresError(code: .poolClosed, message: "the connection pool is closed")), nil)
                }
                if let connection = state.idle.popLast() { return (.success(.connection(connection)), nil) }
                if state.openCount < configuration.maximumConnections {
                    state.openCount += 1
                    return (.success(.openNew), nil)
                }
                state.nextWaiterID += 1
                state.waiters.append(Waiter(id: state.nextWaiterID, continuation: continuation))
                return (nil, state.nextWaiterID)
            }
            if let immediate {
                continuation.resume(with: immediate)
            } else {
                waited = true
                metrics.queued()
                if let deadline, let queued {
                    expiry.withLockedValue {
                        $0 = Task { [weak self] in
                            guard (try? await Task.sleep(until: deadline)) != nil else { return }
                            self?.expire(queued)
                        }
                    }
                }
            }
        }
        switch grant {
        case .connection(let connection):
            return connection
        case .openNew:
            return try await open(by: deadline)
        }
    }

    /// Opens a connection for a caller that must have it by `deadline`. libpq's connect cannot be
    /// interrupted (it keeps its `connect_timeout` for each host it tries), so a caller whose deadline
    /// comes first stops waiting, and the connection, once open, joins the pool for the next caller.
    private func open(by deadline: ContinuousClock.Instant?) async throws -> PostgresConnection {
        let configuration = self.configuration
        let connecting = Task { try await runBlocking { try PostgresConnection.connect(configuration) } }
        guard let deadline else { return try opened(await connecting.result) }
        let answered = NIOLockedValueBox(false)
        let expiry = NIOLockedValueBox<Task<Void, Never>?>(nil)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
            Task {
                let result = await connecting.result
                expiry.withLockedValue { $0?.cancel() }
                guard Self.first(answered) else {
                    // The caller gave up: the connection is the pool's.
                    if let connection = try? result.get() {
                        metrics.opened()
                        metrics.handedOut()
                        release(connection)
                    } else {
                        giveUpSlot()
                    }
                    return
                }
                continuation.resume(with: Result { try opened(result) })
            }
            expiry.withLockedValue {
                $0 = Task {
                    guard (try? await Task.sleep(until: deadline)) != nil, Self.first(answered) else { return }
                    continuation.resume(
                        throwing: PostgresError(code: .timedOut, message: "no PostgreSQL connection could be opened within the deadline"))
                }
            }
        }
    }

    /// True for the first to ask: of a connect and a deadline, the one that answers the caller.
    private static func first(_ answered: NIOLockedValueBox<Bool>) -> Bool {
        answered.withLockedValue { answered in
            defer { answered = true }
            return !answered
        }
    }

    /// The connect's outcome for its caller: the connection, or its error with the slot given back.
    private func opened(_ result: Result<PostgresConnection, any Error>) throws -> PostgresConnection {
        switch result {
        case .success(let connection):
            metrics.opened()
            return connection
        case .failure(let error):
            giveUpSlot()
            throw error
        }
    }

    /// A waiter's deadline came before a connection: it fails, and leaves the queue.
    private func expire(_ id: UInt64) {
        let waiter = state.withLockedValue { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(
            throwing: PostgresError(code: .timedOut, message: "no PostgreSQL connection was free within the deadline"))
    }

    private func release(_ connection: PostgresConnection) {
        metrics.returned()
        connection.deadline = nil
        let broken = connection.isBroken
        // `closed`: how many connections this release drops (freed when the last reference goes).
        let (waiter, grant, stale, closed): (Waiter?, Grant?, [PostgresConnection], Int) =
            state.withLockedValue { state in
                if broken || state.isClosed {
                    // After a broken connection the idle ones to the same server are suspect too (a restart,
                    // a failover, a frozen machine): drop them; those to other servers stay.
                    let stale = broken ? state.idle.filter { $0.server == connection.server } : []
                    state.idle.removeAll { broken ? $0.server == connection.server : true }
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
        if broken {
            logger.debug(
                "dropping a postgres connection and the idle ones to its server",
                metadata: ["server": "\(connection.server)", "idle": "\(stale.count)"])
        }
        if let waiter, let grant { waiter.continuation.resume(returning: grant) }
    }

    /// A connection could not be opened: free its slot, and let a waiter try in its place.
    private func giveUpSlot() {
        let waiter = state.withLockedValue { state -> Waiter? in
            state.openCount -= 1
            guard !state.isClosed, !state.waiters.isEmpty else { return nil }
            state.openCount += 1
            return state.waiters.removeFirst()
        }
        waiter?.continuation.resume(returning: .openNew)
    }

    private func runBlocking<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        do {
            return try await threadPool.runIfActive(work)
        } catch is NIOThreadPoolError.ThreadPoolInactive {
            throw PostgresError(code: .poolClosed, message: "the connection pool is closed")
        }
    }
}
