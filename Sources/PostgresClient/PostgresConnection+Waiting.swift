import CLibPQ
import Foundation

extension PostgresConnection {
    /// Waits for what was just sent: flushes it, then reads until libpq has every result. Returns the
    /// first failed result, or else the last one (the caller frees it); nil when the connection broke
    /// (libpq's error message says how). Throws `timedOut` at `deadline`, leaving the connection
    /// discarded: whether the server ran the statement is unknown.
    func awaitResult() throws -> OpaquePointer? {
        // In non-blocking mode libpq keeps what the socket did not take; the server may answer (an error)
        // before it read all of it, so reading goes on while sending waits.
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            if flushed < 0 { return nil }
            try waitForSocket(Int16(POLLIN | POLLOUT))
            if PQconsumeInput(handle) == 0 { return nil }
        }
        var kept: OpaquePointer?
        do {
            while true {
                while PQisBusy(handle) == 1 {
                    try waitForSocket(Int16(POLLIN))
                    // A failed read closes the connection; PQgetResult then reports it without waiting.
                    if PQconsumeInput(handle) == 0 { break }
                }
                guard let result = PQgetResult(handle) else { break }
                if let previous = kept {
                    if Self.failed(previous) {
                        PQclear(result)
                        continue
                    }
                    PQclear(previous)
                }
                kept = result
            }
        } catch {
            if let kept { PQclear(kept) }
            throw error
        }
        return kept
    }

    private static func failed(_ result: OpaquePointer) -> Bool {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return false
        default: return true
        }
    }

    /// Waits until the socket is ready for `events`, or throws at `deadline`. Returns at once when libpq
    /// has no socket or `poll` fails: libpq's next call finds the broken connection itself.
    private func waitForSocket(_ events: Int16) throws {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - .now
                guard left > .zero else { throw missedDeadline() }
                milliseconds = Int32(clamping: Int64((left / .milliseconds(1)).rounded(.up)))
            }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    /// Gives the connection up: shuts its socket down, so nothing more is waited for on it (freeing it
    /// later sends nothing a frozen server would have to take), and marks it for the pool to discard.
    private func missedDeadline() -> PostgresError {
        discardReason = .timedOut
        let socket = PQsocket(handle)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        return PostgresError(code: .timedOut, message: "PostgreSQL at \(server) did not answer within the deadline")
    }
}
