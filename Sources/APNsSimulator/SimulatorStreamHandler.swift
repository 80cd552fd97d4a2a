import APNsCore
import NIOCore
import NIOHPACK
import NIOHTTP2
import UUIDText

/// One HTTP/2 stream: collects the request, asks the simulator (or, under `/_sim/`, its control API)
/// for the answer, and writes it, or does what a fault says instead (`SimulatedFault`). Push streams
/// count towards their connection's GOAWAY (`GoAwayFault`); control requests are never faulted.
/// It reads and writes HTTP/2 frames, not HTTP/1 parts: the HTTP/1 codec cost CPU time on every push and
/// answered in two frames (HEADERS, then an empty DATA to end the stream) where one does.
final class SimulatorStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let simulator: APNsSimulator
    /// The connection's answers held back by latency or a token's delay.
    private let delayedAnswers: DelayedAnswers
    private var request: (method: String, path: String, headers: [String: String])?
    private var body: [UInt8] = []
    private var connection: SimulatedConnection?
    private var streamID = 0
    /// When the request's headers came: its answer goes out the simulator's latency after that.
    private var arrival = NIODeadline.now()

    init(simulator: APNsSimulator, delayedAnswers: DelayedAnswers) {
        self.simulator = simulator
        self.delayedAnswers = delayedAnswers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let headers) where request == nil:
            request = Self.request(headers.headers)
            arrival = .now()
            if connection == nil, let id = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) {
                streamID = Int(id)
                connection = SimulatedConnection.of(stream: context.channel)
                connection?.streamOpened(streamID)
            }
            if headers.endStream { requestEnded(context: context) }
        case .headers(let trailers):
            if trailers.endStream { requestEnded(context: context) }
        case .data(let data):
            if case .byteBuffer(var buffer) = data.data { body += buffer.readBytes(length: buffer.readableBytes) ?? [] }
            if data.endStream { requestEnded(context: context) }
        default:
            break
        }
    }

    /// The method, path and regular headers (by lower-case name, as HTTP/2 has them) of a request; the
    /// `:authority` becomes `host`, as in HTTP/1.
    private static func request(_ headers: HPACKHeaders) -> (method: String, path: String, headers: [String: String]) {
        var method = ""
        var path = ""
        var authority: String?
        var regular: [String: String] = [:]
        regular.reserveCapacity(headers.count)
        for (name, value, _) in headers {
            guard name.utf8.first == UInt8(ascii: ":") else {
                regular[name] = value
                continue
            }
            switch name {
            case ":method": method = value
            case ":path": path = value
            case ":authority": authority = value
            default: break
            }
        }
        if let authority, regular["host"] == nil { regular["host"] = authority }
        return (method, path, regular)
    }

    private func requestEnded(context: ChannelHandlerContext) {
        guard let request else { return }
        if SimulatorControl.handles(path: request.path) {
            write(SimulatorControl.answer(method: request.method, path: request.path, body: body, simulator: simulator), context: context)
            return
        }
        // The GOAWAY told the client this stream would not be processed: it is not.
        if connection?.isBeyondGoAway(streamID) == true { return }
        let answer = simulator.answer(
            method: request.method, path: request.path, headers: request.headers, body: body,
            connection: connection?.number ?? 0, stream: streamID
        ) { [connection] in
            guard let connection else {
                var generator = APNsIDGenerator()
                return generator.next().lowercasedText
            }
            return connection.newAPNsID()
        }
        if let connection {
            connection.processedStream(streamID)
            if simulator.goesAway(afterProcessing: connection.processed) { connection.goAway() }
        }
        respond(answer, due: Self.due(answer.delay, latency: simulator.latency, since: arrival), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection?.streamClosed(streamID)
        context.fireChannelInactive()
    }

    /// `due`: when the answer goes out; nil for at once.
    private func respond(_ answer: APNsSimulator.Answer, due: NIODeadline?, context: ChannelHandlerContext) {
        switch answer.fault {
        case .resetStream(let code)?:
            context.writeAndFlush(wrapOutboundOut(.rstStream(HTTP2ErrorCode(networkCode: Int(code.rawValue)))), promise: nil)
        case .closeBeforeAnswer?:
            connection?.drop(abortive: true)
        case .closeAfterHeaders?:
            let headers = HTTP2Frame.FramePayload.headers(.init(headers: Self.headers(of: answer, status: 200)))
            // The close follows a moment later, not on the headers' heels: a client reads the 200 on its own
            // first, which is the case this fault is for (headers and close read together may fail the
            // stream before the client sees its status, and then the push rightly goes again).
            let loop = context.eventLoop.assumeIsolated()
            context.writeAndFlush(wrapOutboundOut(headers)).assumeIsolated().whenComplete { [connection] _ in
                loop.scheduleTask(in: Self.closeAfterHeadersGap) { connection?.drop(abortive: false) }
            }
        case nil:
            guard let due else {
                write(answer, context: context)
                return
            }
            delayedAnswers.send(at: due) { [self] in write(answer, context: context) }
        }
    }

    /// How long `closeAfterHeaders` leaves between the 200's headers and the connection's close.
    private static let closeAfterHeadersGap = TimeAmount.milliseconds(50)

    /// When an answer goes out, nil for at once. The latency counts from the request's arrival and a
    /// token's own delay comes on top; once the latency has passed (or with none), the delay counts from now.
    private static func due(_ own: TimeAmount?, latency: TimeAmount, since arrival: NIODeadline) -> NIODeadline? {
        let now = NIODeadline.now()
        let afterLatency = arrival + latency + (own ?? .zero)
        if latency > .zero, afterLatency > now { return afterLatency }
        return own.map { now + $0 }
    }

    private static func headers(of answer: APNsSimulator.Answer, status: Int) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.reserveCapacity(3 + answer.headers.count)
        headers.add(name: ":status", value: String(status))
        // Never the same twice: not worth a place in either side's HPACK table.
        if let apnsID = answer.apnsID { headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable) }
        for (name, value) in answer.headers { headers.add(name: name.lowercased(), value: value) }
        if !answer.body.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(answer.body.count))
        }
        return headers
    }

    /// The answer in one HEADERS frame that ends the stream, or HEADERS and one DATA frame with its body.
    private func write(_ answer: APNsSimulator.Answer, context: ChannelHandlerContext) {
        let headers = Self.headers(of: answer, status: answer.status)
        guard !answer.body.isEmpty else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
            return
        }
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        let body = context.channel.allocator.buffer(bytes: answer.body)
        context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
    }
}
