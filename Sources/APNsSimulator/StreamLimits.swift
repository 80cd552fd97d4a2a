import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP2

/// The simulator's open connections and how many streams each has open, so the stream limit
/// (SETTINGS_MAX_CONCURRENT_STREAMS) can be lowered on them at run time, as APNs may, and a test can
/// see whether the client kept to it. Used from any thread.
///
/// Streams are counted as NIO's HTTP/2 handler opens and closes them, frame by frame, in the order the
/// client's frames came (`StreamCounter`), and so is the client's acknowledgement of a new limit: a stream the
/// client opened before acknowledging is never taken for one it opened after.
final class StreamLimits: Sendable {
    struct Connection {
        let number: Int
        /// Nil once the connection closed; its figures stay for the control API.
        var channel: (any Channel)?
        var openStreams = 0
        /// Limits sent in SETTINGS frames the client has not acknowledged yet, oldest first.
        var unacknowledged: [Int]
        /// The limit in force: the client has acknowledged it (nil until it acknowledged the first).
        var acknowledged: Int?
        /// The most streams open at once, counted as each stream opened, since `acknowledged` took effect.
        var highWater = 0
        /// The most streams open at once over the connection's life.
        var mostEver = 0
    }

    private let connections = NIOLockedValueBox([Int: Connection]())

    func register(_ number: Int, channel: any Channel, limit: Int) {
        connections.withLockedValue { $0[number] = Connection(number: number, channel: channel, unacknowledged: [limit]) }
    }

    /// Its streams went with it (NIO may not tell of each).
    func closed(_ number: Int) {
        connections.withLockedValue { connections in
            connections[number]?.channel = nil
            connections[number]?.openStreams = 0
        }
    }

    func streamOpened(on number: Int) {
        connections.withLockedValue { connections in
            guard var connection = connections[number] else { return }
            connection.openStreams += 1
            if connection.acknowledged != nil { connection.highWater = max(connection.highWater, connection.openStreams) }
            connection.mostEver = max(connection.mostEver, connection.openStreams)
            connections[number] = connection
        }
    }

    func streamClosed(on number: Int) {
        connections.withLockedValue { connections in
            guard let open = connections[number]?.openStreams, open > 0 else { return }
            connections[number]?.openStreams = open - 1
        }
    }

    /// The client acknowledged the oldest SETTINGS it had not: from now on its limit holds.
    func settingsAcknowledged(on number: Int) {
        connections.withLockedValue { connections in
            guard var connection = connections[number], !connection.unacknowledged.isEmpty else { return }
            connection.acknowledged = connection.unacknowledged.removeFirst()
            connection.highWater = 0
            connections[number] = connection
        }
    }

    /// Sends a SETTINGS frame with the new limit on every open connection.
    func announce(_ limit: Int) {
        let channels = connections.withLockedValue { connections -> [any Channel] in
            var channels: [any Channel] = []
            for number in connections.keys {
                guard let channel = connections[number]?.channel else { continue }
                connections[number]?.unacknowledged.append(limit)
                channels.append(channel)
            }
            return channels
        }
        let frame = HTTP2Frame(
            streamID: .rootStream,
            payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: limit)])))
        for channel in channels { channel.writeAndFlush(frame, promise: nil) }
    }

    var all: [Connection] {
        connections.withLockedValue { $0.values.sorted { $0.number < $1.number } }
    }
}

/// Told by a connection's HTTP/2 handler of each stream opened and closed, as it processes the frame
/// that does it (`NIOHTTP2StreamDelegate`), before it processes the next frame.
struct StreamCounter: NIOHTTP2StreamDelegate {
    let limits: StreamLimits
    let number: Int

    func streamCreated(_ id: HTTP2StreamID, channel: any Channel) {
        limits.streamOpened(on: number)
    }

    func streamClosed(_ id: HTTP2StreamID, channel: any Channel) {
        limits.streamClosed(on: number)
    }
}

/// Last in a connection's pipeline, after HTTP/2: the connection-level frames come here, among them
/// the client's acknowledgement of the simulator's SETTINGS.
final class SettingsAcknowledgementWatcher: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    private let limits: StreamLimits
    private let number: Int

    init(limits: StreamLimits, number: Int) {
        self.limits = limits
        self.number = number
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .settings(.ack) = unwrapInboundIn(data).payload { limits.settingsAcknowledged(on: number) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        limits.closed(number)
        context.fireChannelInactive()
    }
}
