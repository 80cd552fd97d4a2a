import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2

/// One HTTP/2 stream: collects the request, asks the simulator (or, under `/_sim/`, its control API)
/// for the answer, and writes it, or does what a fault says instead (`SimulatedFault`). Push streams
/// count towards their connection's GOAWAY (`GoAwayFault`); control requests are never faulted.
final class SimulatorStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let simulator: APNsSimulator
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var connection: SimulatedConnection?
    private var streamID = 0
    /// When the request's headers came: its answer goes out the simulator's latency after that.
    private var arrival = NIODeadline.now()

    init(simulator: APNsSimulator) {
        self.simulator = simulator
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            arrival = .now()
            if connection == nil, let id = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) {
                streamID = Int(id)
                connection = SimulatedConnection.of(stream: context.channel)
                connection?.streamOpened(streamID)
            }
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            if SimulatorControl.handles(path: head.uri) {
                write(SimulatorControl.answer(method: head.method.rawValue, path: head.uri, body: body, simulator: simulator), context: context)
                return
            }
            // The GOAWAY told the client this stream would not be processed: it is not.
            if connection?.isBeyondGoAway(streamID) == true { return }
            var answer = simulator.answer(
                method: head.method.rawValue, path: head.uri, headers: headers, body: body,
                connection: connection?.number ?? 0, stream: streamID)
            if let connection {
                connection.processedStream(streamID)
                if simulator.goesAway(afterProcessing: connection.processed) { connection.goAway() }
            }
            answer.delay = Self.delay(answer.delay, latency: simulator.latency, since: arrival)
            respond(answer, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection?.streamClosed(streamID)
        context.fireChannelInactive()
    }

    private func respond(_ answer: APNsSimulator.Answer, context: ChannelHandlerContext) {
        switch answer.fault {
        case .resetStream(let code)?:
            // Written below the HTTP/1 codec, which has no part for it.
            let codec = try? context.pipeline.syncOperations.context(handlerType: HTTP2FramePayloadToHTTP1ServerCodec.self)
            let reset = HTTP2Frame.FramePayload.rstStream(HTTP2ErrorCode(networkCode: Int(code.rawValue)))
            codec?.writeAndFlush(NIOAny(reset), promise: nil)
        case .closeBeforeAnswer?:
            connection?.drop(abortive: true)
        case .closeAfterHeaders?:
            let head = HTTPResponseHead(version: .http2, status: .ok, headers: Self.headers(of: answer))
            context.writeAndFlush(wrapOutboundOut(.head(head))).assumeIsolated().whenComplete { [connection] _ in
                connection?.drop(abortive: false)
            }
        case nil:
            guard let delay = answer.delay else {
                write(answer, context: context)
                return
            }
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let (handler, context) = loopBound.value
                handler.write(answer, context: context)
            }
        }
    }

    /// A token's own delay comes on top of the latency, which counts from the request's arrival.
    private static func delay(_ own: TimeAmount?, latency: TimeAmount, since arrival: NIODeadline) -> TimeAmount? {
        guard latency > .zero else { return own }
        let remaining = (arrival + latency) - .now() + (own ?? .zero)
        return remaining > .zero ? remaining : own
    }

    private static func headers(of answer: APNsSimulator.Answer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let apnsID = answer.apnsID { headers.add(name: "apns-id", value: apnsID) }
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !answer.body.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(answer.body.count))
        }
        return headers
    }

    private func write(_ answer: APNsSimulator.Answer, context: ChannelHandlerContext) {
        // APNs ends a bodiless answer (every 200) with its HEADERS frame; NIO's HTTP/1 codec would add an
        // empty DATA frame, which some clients try to read as JSON (aioapns drops the connection).
        if answer.body.isEmpty,
            let codec = try? context.pipeline.syncOperations.context(handlerType: HTTP2FramePayloadToHTTP1ServerCodec.self)
        {
            var headers = HPACKHeaders([(":status", String(answer.status))])
            for (name, value) in Self.headers(of: answer) { headers.add(name: name.lowercased(), value: value) }
            codec.writeAndFlush(NIOAny(HTTP2Frame.FramePayload.headers(.init(headers: headers, endStream: true))), promise: nil)
            return
        }
        let status = HTTPResponseStatus(statusCode: answer.status)
        let head = HTTPResponseHead(version: .http2, status: status, headers: Self.headers(of: answer))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
