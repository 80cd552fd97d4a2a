import APNsCore
import NIOCore
import NIOHTTP2
import UUIDText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// First in each connection's pipeline, below TLS and HTTP/2: numbers the connection, follows its
/// streams for a GOAWAY (`GoAwayFault`), and closes it from below TLS and HTTP/2 when a fault says so,
/// so that the client gets no TLS close_notify and no GOAWAY first. Used on the connection's event
/// loop only, by its streams' handlers.
final class SimulatedConnection: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    /// 1 for the simulator's first connection, and so on (`SimulatedPush.connection`).
    let number: Int
    private var context: ChannelHandlerContext?
    /// Streams begun and not yet closed.
    private var open: Set<Int> = []
    /// Push streams processed so far: answered, failed or faulted.
    private(set) var processed = 0
    private var highestProcessed = 0
    /// The last stream id the GOAWAY named, once it was sent.
    private var lastStreamID: Int?

    private var apnsIDs = APNsIDGenerator()

    init(number: Int) {
        self.number = number
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// The connection a stream channel belongs to.
    static func of(stream: any Channel) -> SimulatedConnection? {
        try? stream.parent?.pipeline.syncOperations.handler(type: SimulatedConnection.self)
    }

    func streamOpened(_ id: Int) {
        open.insert(id)
    }

    func streamClosed(_ id: Int) {
        open.remove(id)
        closeIfAnswered()
    }

    /// A new `apns-id`, for a push that came without one.
    func newAPNsID() -> String {
        apnsIDs.next().lowercasedText
    }

    /// A stream the GOAWAY told the client would not be processed.
    func isBeyondGoAway(_ id: Int) -> Bool {
        lastStreamID.map { id > $0 } ?? false
    }

    func processedStream(_ id: Int) {
        processed += 1
        highestProcessed = max(highestProcessed, id)
    }

    /// Sends GOAWAY naming the highest stream processed so far as the last one processed. NIO drops
    /// the streams above it; the client learns from the frame that they were not processed.
    func goAway() {
        guard lastStreamID == nil, let context else { return }
        lastStreamID = highestProcessed
        let frame = HTTP2Frame(
            streamID: .rootStream,
            payload: .goAway(
                lastStreamID: HTTP2StreamID(highestProcessed), errorCode: .noError,
                opaqueData: ByteBuffer(string: #"{"reason":"Shutdown"}"#)))
        context.channel.writeAndFlush(frame, promise: nil)
    }

    /// After a GOAWAY, the connection closes (TLS close_notify, then FIN) once every stream it
    /// still processes has its answer. A stream closes while its last frame is being written: the close
    /// waits for the event loop's next turn, when that frame has been flushed.
    private func closeIfAnswered() {
        guard let lastStreamID, !open.contains(where: { $0 <= lastStreamID }), let context else { return }
        let channel = context.channel
        context.eventLoop.execute { channel.close(promise: nil) }
    }

    /// Closes the connection below TLS and HTTP/2: a TCP reset (SO_LINGER 0) when `abortive`, else a FIN.
    func drop(abortive: Bool) {
        guard let context else { return }
        guard abortive, let socket = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
