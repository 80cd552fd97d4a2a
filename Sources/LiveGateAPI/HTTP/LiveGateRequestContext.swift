import Hummingbird
import LiveGateDomain
import NIOCore

/// Per-request state: the peer's address, the authenticated key, and the body limit in force.
package struct LiveGateRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The TCP peer; nil when the request did not come over a socket (router tests).
    package let peerAddress: IPAddress?
    /// Set by `APIKeyMiddleware` once the bearer key checks out.
    package var apiKey: APIKey?
    /// Set by `RequestLimitsMiddleware` from the gateway's configuration.
    package var requestBodyLimit = GatewayConfiguration.defaultMaxRequestBodyBytes
    /// The address the request is treated as coming from (the peer, or a trusted proxy's client).
    package var clientAddress: IPAddress?

    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress.flatMap(IPAddress.init)
        self.clientAddress = self.peerAddress
    }

    package var maxUploadSize: Int { requestBodyLimit }
}
