import NIOCore
import NIOHTTP1

/// One HTTP/2 stream: collects the request, asks the simulator (or, under `/_sim/`, its control API)
/// for the answer, writes it.
final class SimulatorStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let simulator: APNsSimulator
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(simulator: APNsSimulator) {
        self.simulator = simulator
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let answer =
                SimulatorControl.handles(path: head.uri)
                ? SimulatorControl.answer(method: head.method.rawValue, path: head.uri, body: body, simulator: simulator)
                : simulator.answer(method: head.method.rawValue, path: head.uri, headers: headers, body: body)
            if answer.resetsConnection {
                ConnectionResetHandler.reset(context.channel.parent)
            } else if let delay = answer.delay {
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: delay) {
                    let (handler, context) = loopBound.value
                    handler.write(answer, context: context)
                }
            } else {
                write(answer, context: context)
            }
        }
    }

    private func write(_ answer: APNsSimulator.Answer, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        if let apnsID = answer.apnsID { headers.add(name: "apns-id", value: apnsID) }
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !answer.body.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(answer.body.count))
        }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: status, headers: headers))), promise: nil)
        if !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
