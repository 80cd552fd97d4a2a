#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// First in each connection's pipeline, below TLS and HTTP/2, so that closing from here skips both:
/// with SO_LINGER 0 the client gets a TCP reset, with no TLS close_notify and no GOAWAY before it, as
/// when a server crashes or a middlebox drops the connection.
final class ConnectionResetHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    /// Resets `connection` (a simulator connection; on its event loop).
    static func reset(_ connection: (any Channel)?) {
        guard let connection, let provider = connection as? any SocketOptionProvider,
            let context = try? connection.pipeline.syncOperations.context(handlerType: ConnectionResetHandler.self)
        else { return }
        let bound = NIOLoopBound(context, eventLoop: connection.eventLoop)
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }
}
