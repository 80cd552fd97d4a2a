import Foundation

/// The SDK: reports this device's Live Activity tokens and states to a LiveGate gateway, as Braze's SDK
/// reports them to Braze. `liveActivities` has Braze's `liveActivities` calls.
///
/// ```swift
/// let liveGate = try LiveGate(configuration: .init(gatewayURL: url, appID: "YOUR-APP-ID"))
/// await liveGate.changeUser(externalID: "user-42")
/// liveGate.liveActivities.launchActivity(pushTokenTag: "order-1234", activity: activity)
/// ```
public final class LiveGate: Sendable {
    public let liveActivities: LiveActivities
    /// This install's device id, as the gateway knows it.
    public let deviceID: String
    /// Every problem the SDK meets, in order; reports it could not send yet are kept and sent again.
    public let errors: AsyncStream<LiveGateError>
    let outbox: Outbox

    public init(configuration: Configuration) throws {
        let folder = configuration.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let deviceID = try configuration.deviceID ?? DeviceIdentity.load(in: folder)
        let (errors, continuation) = AsyncStream.makeStream(of: LiveGateError.self, bufferingPolicy: .bufferingNewest(100))
        let transport = configuration.transport ?? URLSessionTransport()
        let sender = ReportSender(
            gatewayURL: configuration.gatewayURL, appID: configuration.appID, deviceID: deviceID, transport: transport,
            tokens: SDKAuthenticationTokens(provider: configuration.sdkAuthenticationToken))
        let outbox = Outbox(store: OutboxStore(folder: folder), sender: sender, retry: configuration.retry, errors: continuation)
        self.deviceID = deviceID
        self.errors = errors
        self.outbox = outbox
        self.liveActivities = LiveActivities(
            outbox: outbox, channels: ChannelLookup(gatewayURL: configuration.gatewayURL, appID: configuration.appID, transport: transport),
            errors: continuation, firstTokenWait: configuration.firstTokenWait)
        Task { await outbox.start() }
    }

    /// The signed-in user (Braze's `changeUser(userId:)`): later reports name them, and the device's
    /// tokens are registered again under them.
    public func changeUser(externalID: String) async {
        await outbox.changeUser(externalID)
    }

    /// No user from now on. The gateway keeps the device's tokens with the user they were registered under.
    public func logout() async {
        await outbox.changeUser(nil)
    }

    /// Returns once every queued report was sent (or refused for good).
    public func flush() async {
        await outbox.flush()
    }

    /// Stops sending (what waits stays on disk for the next launch) and stops following activities.
    public func shutdown() async {
        liveActivities.stopTracking()
        await outbox.stop()
    }
}
