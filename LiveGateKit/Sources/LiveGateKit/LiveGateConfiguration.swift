import Foundation

@available(iOS 16.0, macOS 13.0, *)
extension LiveGate {
    /// What the SDK needs to know: the gateway, the app, and how to prove who the user is.
    public struct Configuration: Sendable {
        /// The gateway's base URL, such as `https://push.example.com`.
        public var gatewayURL: URL
        /// The app's `app_id`, as `livegate app create` printed it.
        public var appID: String
        /// This install's device id; nil: a UUID made once and kept in `storageFolder`.
        public var deviceID: String?
        /// Where the outbox and the device id are kept; nil: Application Support/LiveGate.
        public var storageFolder: URL?
        /// The SDK authentication JWT for a user, signed by your server; asked when a report names a
        /// user, kept while the gateway takes it, asked again once when the gateway answers 401.
        public var sdkAuthenticationToken: (@Sendable (_ externalID: String) async throws -> String)?
        public var retry: RetryPolicy
        /// How long a followed activity's first state report waits for its first update token, so that the
        /// gateway has the token before the state confirms a start. An activity that gets no token (one
        /// requested without `pushType`) reports its state after this wait.
        public var firstTokenWait: Duration
        /// Nil: `URLSessionTransport()`.
        public var transport: (any LiveGateTransport)?

        public init(
            gatewayURL: URL, appID: String, deviceID: String? = nil, storageFolder: URL? = nil,
            sdkAuthenticationToken: (@Sendable (_ externalID: String) async throws -> String)? = nil,
            retry: RetryPolicy = RetryPolicy(), firstTokenWait: Duration = .seconds(10),
            transport: (any LiveGateTransport)? = nil
        ) {
            self.gatewayURL = gatewayURL
            self.appID = appID
            self.deviceID = deviceID
            self.storageFolder = storageFolder
            self.sdkAuthenticationToken = sdkAuthenticationToken
            self.retry = retry
            self.firstTokenWait = firstTokenWait
            self.transport = transport
        }

        var folder: URL {
            storageFolder
                ?? FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("LiveGate", isDirectory: true)
        }
    }
}
