import LiveGateDomain
import NIOConcurrencyHelpers
import PostgresClient

/// A delivery worker's session (migration 010): a connection of its own, never the pool's, holding a
/// session-level advisory lock on (`lockClass`, the worker's number). The claim statement tests the lock
/// of each claimed dispatch's worker with `pg_try_advisory_xact_lock`: free means that session is over.
///
/// TCP keepalives on both ends bound how long a vanished peer goes unnoticed (about 8 s): the server
/// then ends the session and frees the lock; this side notices a silent network within as long.
package final class PostgresWorkerSession: DeliveryWorkerSession {
    /// "LGDL": LiveGate delivery liveness, apart from the one-key advisory locks used elsewhere.
    static let lockClass: Int32 = 0x4C47_444C
    private let session: PostgresSession
    private struct State {
        /// Drawn once, and kept: the dispatches claimed under it are this worker's.
        var number: Int32?
        /// The current connection holds the lock.
        var locked = false
    }

    private let state = NIOLockedValueBox(State())

    package init(configuration: PostgresConfiguration) {
        var configuration = configuration
        configuration.maximumConnections = 1
        configuration.applicationName = "livegate-delivery-session"
        // Stricter than the pool on unacknowledged writes: a vanished worker's lock must go soon.
        let sessionSettings = PostgresConfiguration.deadPeerDetection.merging(["tcp_user_timeout": "5000"]) { $1 }
        configuration.parameters.merge(sessionSettings) { _, stricter in stricter }
        session = PostgresSession(configuration: configuration)
    }

    package func take() async throws -> Int32? {
        let state = self.state
        return try await session.withConnection { connection, isNew in
            if isNew {
                state.withLockedValue { $0.locked = false }
                try connection.executeScript(
                    "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3")
            }
            let known = state.withLockedValue { $0 }
            if known.locked, let number = known.number {
                // Asked again although the connection looked open: make sure it is (a dead one throws
                // here, and the next call opens a new one).
                try connection.query("SELECT 1")
                return number
            }
            // The same number again after a lost session: the dispatches claimed under it stay this worker's.
            let candidate: Int32 =
                try known.number ?? connection.query("SELECT nextval('delivery_worker_numbers')::int AS n")[0].require("n")
            let locked: Bool = try connection.query(
                "SELECT pg_try_advisory_lock($1::int, $2::int) AS locked", [Self.lockClass, candidate]
            )[0].require("locked")
            // Not locked: a claimer testing the number holds it for a moment, or a fresh number wrapped
            // around onto a live worker's (then the next try draws another).
            state.withLockedValue { $0 = locked ? State(number: candidate, locked: true) : $0 }
            return locked ? candidate : nil
        }
    }

    package func waitWhileHeld(upTo timeout: Duration) async -> Bool {
        await session.waitWhileOpen(milliseconds: Int32(clamping: timeout.inMilliseconds))
    }

    package func close() async {
        await session.close()
    }
}
