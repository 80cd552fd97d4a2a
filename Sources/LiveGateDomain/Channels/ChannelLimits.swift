/// Limits on an app's broadcast channels (`livegate serve` reads them from the environment).
package struct ChannelLimits: Sendable {
    /// APNs keeps at most 10,000 channels per app and environment; asking for more is refused here,
    /// without calling APNs.
    package var channelsPerApp: Int
    /// How long a request waits for another request (any gateway) creating the same activity's channel.
    package var waitForOtherCreate: Duration
    /// A claim older than this was left by a gateway that stopped mid-create; longer than an APNs call.
    package var abandonedClaimAge: Duration

    package init(channelsPerApp: Int = 10_000, waitForOtherCreate: Duration = .seconds(40), abandonedClaimAge: Duration = .seconds(120)) {
        self.channelsPerApp = channelsPerApp
        self.waitForOtherCreate = waitForOtherCreate
        self.abandonedClaimAge = abandonedClaimAge
    }
}
