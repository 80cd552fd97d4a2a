import LiveGate

/// What the simulator listens on and which provider keys it accepts.
public struct SimulatorConfiguration: Sendable {
    /// A key APNs knows: the team it belongs to and its public half.
    public struct ProviderKey: Sendable {
        public let teamID: String
        public let publicKey: P256PublicKey

        public init(teamID: String, publicKey: P256PublicKey) {
            self.teamID = teamID
            self.publicKey = publicKey
        }
    }

    public var host: String
    /// 0: any free port (see `APNsSimulator.start()`).
    public var port: Int
    /// PEM files for TLS (h2 by ALPN); nil serves HTTP/2 without TLS (prior knowledge).
    public var tls: (certificateFile: String, privateKeyFile: String)?
    /// By key id (the JWT's `kid`).
    public var providerKeys: [String: ProviderKey]
    /// SETTINGS_MAX_CONCURRENT_STREAMS, as APNs advertises it.
    public var maximumConcurrentStreams: Int

    public init(
        host: String = "127.0.0.1", port: Int = 0, tls: (certificateFile: String, privateKeyFile: String)? = nil,
        providerKeys: [String: ProviderKey] = [:], maximumConcurrentStreams: Int = 500
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.providerKeys = providerKeys
        self.maximumConcurrentStreams = maximumConcurrentStreams
    }
}
