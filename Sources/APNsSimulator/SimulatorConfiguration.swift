/// What the simulator listens on and which provider keys it accepts.
package struct SimulatorConfiguration: Sendable {
    /// A key APNs knows: the team it belongs to and its public half.
    package struct ProviderKey: Sendable {
        package let teamID: String
        package let publicKey: P256PublicKey

        package init(teamID: String, publicKey: P256PublicKey) {
            self.teamID = teamID
            self.publicKey = publicKey
        }
    }

    package var host: String
    /// 0: any free port (see `APNsSimulator.start()`).
    package var port: Int
    /// TLS (h2 by ALPN) with this identity; nil serves HTTP/2 without TLS (prior knowledge).
    package var tls: SimulatorTLS?
    /// By key id (the JWT's `kid`).
    package var providerKeys: [String: ProviderKey]
    /// SETTINGS_MAX_CONCURRENT_STREAMS, as APNs advertises it (500 to 1,000); changeable at run time
    /// (`APNsSimulator.setMaximumConcurrentStreams`).
    package var maximumConcurrentStreams: Int
    /// How long after a request arrived its answer goes out, as a network round trip to APNs would
    /// take; other streams are not held up meanwhile. Changeable at run time (`APNsSimulator.setLatency`).
    package var latency: Duration
    /// Broadcast channels one bundle id may have (APNs: 10,000 per environment); creating another is
    /// answered `CannotCreateChannelConfig`. Small in tests, to reach it.
    package var maximumChannelsPerApp: Int
    /// Accepted pushes kept for `received` and `GET /_sim/pushes`, the newest; older ones are dropped
    /// (and counted), so a simulator left running keeps its memory bounded (about 1.5 KB a push).
    package var retainedPushes: Int
    /// The client's RST_STREAM frames a connection takes within `window` before it is closed as a
    /// rapid-reset attack (GOAWAY, ENHANCE_YOUR_CALM). NIO's own default is 200 in 30 s; the
    /// simulator allows far more by default (`APNsSimulator.streamConfiguration` says why).
    package var streamResetLimit: (count: Int, window: Duration) = (20_000, .seconds(1))

    package init(
        host: String = "127.0.0.1", port: Int = 0, tls: SimulatorTLS? = nil,
        providerKeys: [String: ProviderKey] = [:], maximumConcurrentStreams: Int = 500,
        maximumChannelsPerApp: Int = 10_000, latency: Duration = .zero, retainedPushes: Int = 1_000_000
    ) {
        self.latency = latency
        self.retainedPushes = retainedPushes
        self.host = host
        self.port = port
        self.tls = tls
        self.providerKeys = providerKeys
        self.maximumConcurrentStreams = maximumConcurrentStreams
        self.maximumChannelsPerApp = maximumChannelsPerApp
    }

    /// TLS with a certificate and key from PEM files, given as a pair.
    package init(
        host: String = "127.0.0.1", port: Int = 0, tls files: (certificateFile: String, privateKeyFile: String),
        providerKeys: [String: ProviderKey] = [:], maximumConcurrentStreams: Int = 500, maximumChannelsPerApp: Int = 10_000,
        latency: Duration = .zero, retainedPushes: Int = 1_000_000
    ) {
        self.init(
            host: host, port: port, tls: SimulatorTLS.files(certificateFile: files.certificateFile, privateKeyFile: files.privateKeyFile),
            providerKeys: providerKeys, maximumConcurrentStreams: maximumConcurrentStreams,
            maximumChannelsPerApp: maximumChannelsPerApp, latency: latency, retainedPushes: retainedPushes)
    }
}
