import NIOCore
import NIOHPACK
import NIOHTTP2

/// Lets a request that names its host in a `host` field, without `:authority`, through: RFC 9113 §8.3.1
/// allows it, APNs accepts it, and clients do it (aioapns, for one). NIO's HTTP/1 codec, which the stream
/// handler reads through, insists on `:authority` and would leave such a stream unanswered, so this fills
/// it in from `host` (empty when there is none) before the codec reads the headers.
final class AuthorityFromHost: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .headers(var headers) = unwrapInboundIn(data), !headers.headers.contains(name: ":authority") else {
            context.fireChannelRead(data)
            return
        }
        headers.headers.add(name: ":authority", value: headers.headers.first(name: "host") ?? "")
        context.fireChannelRead(wrapInboundOut(.headers(headers)))
    }
}
