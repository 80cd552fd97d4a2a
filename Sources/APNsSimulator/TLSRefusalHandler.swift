import NIOCore

/// Takes a connection whose TLS handshake the simulator refuses (`TLSRefusal`): answers the client's
/// first bytes, its hello, with a fatal `handshake_failure` alert and closes. A cleartext simulator
/// just closes.
final class TLSRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A TLS record: alert (21), version 3.3, length 2, level fatal (2), handshake_failure (40).
    static let handshakeFailure: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]
    private let tls: Bool
    private var refused = false

    init(tls: Bool) {
        self.tls = tls
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        refused = true
        guard tls else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Self.handshakeFailure))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
