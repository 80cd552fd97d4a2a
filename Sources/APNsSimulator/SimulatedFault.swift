/// What the simulator can do to a push's stream or connection instead of answering it, as a server
/// or the network in between can: the faults a sender must survive without losing a push or counting
/// one twice. Set for a device token (`APNsSimulator.setFault(_:for:times:)`) or for every n-th push
/// (`setFault(_:everyNthPush:times:)`); connection-wide faults are `GoAwayFault` and `TLSRefusal`.
package enum SimulatedFault: Sendable, Equatable {
    /// RST_STREAM with this code instead of an answer. `refusedStream` promises the client that the
    /// push was not processed (RFC 9113 §8.7): the simulator does not record it. With any other code it
    /// records the push first, the worst the protocol allows: accepted, and the answer lost.
    case resetStream(HTTP2ResetCode)
    /// The push is accepted and recorded, then the connection gets a TCP reset instead of the answer,
    /// with no GOAWAY or TLS close_notify before it: a server crash, a middlebox dropping the
    /// connection. Every other stream of the connection still waiting for its answer loses it too.
    case closeBeforeAnswer
    /// The push is accepted and recorded, its answer's HEADERS (status 200) go out without END_STREAM,
    /// then, 50 ms later, the connection closes (TCP FIN, with no GOAWAY or TLS close_notify): an answer
    /// cut off half-way after the client could read its status. Other streams still waiting on the
    /// connection lose their answers.
    case closeAfterHeaders

    /// Whether the push is recorded as received: it reached APNs.
    var accepts: Bool { self != .resetStream(.refusedStream) }
}

/// After this many streams on a connection the simulator sends GOAWAY (NO_ERROR, its debug data
/// `{"reason":"Shutdown"}`), naming the highest stream it took as the last one it processes: it
/// answers every stream up to that one, ignores the later ones (the client may send them again: they
/// were not processed), and closes the connection once the answers are out. As APNs does when a
/// server of its goes away.
package struct GoAwayFault: Sendable, Equatable {
    /// Streams (pushes, not control API requests) a connection carries before its GOAWAY.
    package var afterStreams: Int
    /// How many connections get one; nil: every connection, until the fault is cleared.
    package var connections: Int?

    package init(afterStreams: Int, connections: Int? = nil) {
        self.afterStreams = afterStreams
        self.connections = connections
    }
}

/// New connections fail their TLS handshake: the simulator answers the client's hello with a fatal
/// `handshake_failure` alert and closes. Connections already open are not affected.
package enum TLSRefusal: Sendable, Equatable {
    /// The next n connections.
    case connections(Int)
    /// Every connection opened until then.
    case until(ContinuousClock.Instant)

    /// Every connection opened within `duration` from now.
    package static func during(_ duration: Duration) -> TLSRefusal {
        .until(.now + duration)
    }
}
