/// Where one app's pushes go and as whom: the APNs endpoint, the app's bundle id (the topic is
/// `<bundle id>.push-type.liveactivity`), and the key that signs its provider tokens.
public struct APNsDestination: Sendable, Equatable {
    public var endpoint: APNsEndpoint
    public var bundleID: String
    public var credentials: APNsCredentials

    public init(endpoint: APNsEndpoint, bundleID: String, credentials: APNsCredentials) {
        self.endpoint = endpoint
        self.bundleID = bundleID
        self.credentials = credentials
    }
}
