import Foundation

/// The SDK: reports this device's Live Activity tokens and states to a LiveGate gateway, as Braze's SDK
/// reports them to Braze. `liveActivities` has Braze's `liveActivities` calls.
///
/// ```swift
/// let liveGate = try LiveGate(configuration: .init(gatewayURL: url, appID: "YOUR-APP-ID"))
/// liveGate.changeUser(userId: "user-42")
/// liveGate.liveActivities.launchActivity(pushTokenTag: "order-1234", activity: activity)
/// ```
@available(iOS 16.0, macOS 13.0, *)
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

    /// Braze's `changeUser(userId:)`, as it is called: from `didFinishLaunching` or any thread, without
    /// `await`. Reports made from now on name the user (`external_id`), and the device's token
    /// registrations are queued again under them, in the outbox, so the gateway moves the device's tokens
    /// to them. Calling it again with the same user does nothing.
    public func changeUser(userId: String) {
        outbox.user.externalID = userId
        Task { await outbox.userChanged() }
    }

    /// `changeUser(userId:)`, returning once the registrations are queued under the user.
    public func changeUser(externalID: String) async {
        outbox.user.externalID = externalID
        await outbox.userChanged()
    }

    /// No user from now on: the device's token registrations are sent again with no user
    /// (`"external_id": null`), so the gateway detaches them from the one who logged out, and a start sent
    /// to that user no longer reaches this device. Returns once they are queued.
    public func logout() async {
        outbox.user.externalID = nil
        await outbox.userChanged()
    }

    /// Sends what waits now and returns true once every queued report was sent (or refused for good:
    /// `errors` says which). Returns false, the reports staying queued for later, as soon as a try
    /// cannot reach the gateway (offline), or when the calling task is cancelled. A wait the gateway asked
    /// for (`Retry-After`, after a 429) is kept, so this may take that long.
    @discardableResult
    public func flush() async -> Bool {
        await outbox.flush()
    }

    /// `flush()`, giving up after `timeout`: false when something still waits then.
    @discardableResult
    public func flush(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.outbox.flush() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Stops sending (what waits stays on disk for the next launch) and stops following activities.
    public func shutdown() async {
        liveActivities.stopTracking()
        await outbox.stop()
    }
}
