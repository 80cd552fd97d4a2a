/// Whether each of a lane's connections is still answering: the client's response timeout.
///
/// A request is not timed on its own. Once sent it may still wait, on its connection, for a stream
/// (the server lowered SETTINGS_MAX_CONCURRENT_STREAMS, and nghttp2 holds the request until a stream
/// frees up), behind a busy server, or for a CPU: a late answer is not a lost one, and sending the push
/// again would put it on the device twice. What the timeout detects is a connection that has gone
/// quiet: requests are outstanding on it and it has answered none of them for `timeout`. Such a
/// connection is taken for dead: its requests fail as timed out, for the caller to send again, and
/// the lane closes it (`CurlSockets`), so that nothing more is sent on it.
///
/// Used on one lane's thread only (`CurlLane`).
final class ConnectionWatch {
    private struct Watched {
        /// Requests sent on the connection and not yet ended.
        var outstanding: Int
        /// The last answer on the connection, or when it had requests outstanding again after none.
        var quietSince: ContinuousClock.Instant
    }

    let timeout: Duration
    /// A lane holds a few connections: looked up in order, which costs less per push than hashing.
    private var connections: [(id: CurlConnectionID, watched: Watched)] = []

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// `transfer`'s request is going out on `connection`.
    func requestSent(_ transfer: CurlTransfer, on connection: CurlConnectionID) {
        transfer.connection = connection
        if let place = place(of: connection) {
            connections[place].watched.outstanding += 1
        } else {
            connections.append((connection, Watched(outstanding: 1, quietSince: .now)))
        }
    }

    /// `transfer` is no longer in flight; `answered`: its connection gave (at least the head of) an
    /// answer to it, which shows the connection alive.
    func requestEnded(_ transfer: CurlTransfer, answered: Bool, now: ContinuousClock.Instant) {
        guard let connection = transfer.connection, let place = place(of: connection) else { return }
        transfer.connection = nil
        connections[place].watched.outstanding -= 1
        if connections[place].watched.outstanding <= 0 {
            connections.remove(at: place)
        } else if answered {
            connections[place].watched.quietSince = now
        }
    }

    /// The connections that have answered nothing for `timeout` while requests were outstanding on
    /// them, which the watch forgets, and when the next of the others would be.
    func quietConnections(now: ContinuousClock.Instant) -> (quiet: [CurlConnectionID], next: ContinuousClock.Instant?) {
        var quiet: [CurlConnectionID] = []
        var next: ContinuousClock.Instant?
        for (connection, watched) in connections {
            let deadline = watched.quietSince + timeout
            if deadline <= now {
                quiet.append(connection)
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        if !quiet.isEmpty { connections.removeAll { quiet.contains($0.id) } }
        return (quiet, next)
    }

    private func place(of connection: CurlConnectionID) -> Int? {
        connections.firstIndex { $0.id == connection }
    }
}

extension Result<HTTP2Response, HTTP2TransportError> {
    /// The server answered, at least with a status: its connection was alive.
    var hasAnswer: Bool {
        switch self {
        case .success: true
        case .failure(let error): error.partialAnswer != nil
        }
    }
}
