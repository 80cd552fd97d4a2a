import APNsClient
import APNsCore
import LiveGateAPI
import LiveGateDomain
import Logging

/// Deletes, at APNs and then locally, the channels of ended activities whose retention is over. Each
/// channel is leased before APNs is asked, so gateways running this at once never delete one twice; a
/// channel APNs did not delete stays, and is tried again once its lease runs out.
package struct EndedChannelDeletion: Sendable {
    let store: any ChannelStore
    let tenancy: any TenancyRepository
    let manager: APNsChannelManager
    /// Longer than an APNs call can take, shorter than housekeeping's interval.
    let lease: Duration
    let batchSize: Int
    let logger: Logger

    package init(
        store: any ChannelStore, tenancy: any TenancyRepository, manager: APNsChannelManager, lease: Duration = .seconds(120),
        batchSize: Int = 100, logger: Logger
    ) {
        self.store = store
        self.tenancy = tenancy
        self.manager = manager
        self.lease = lease
        self.batchSize = batchSize
        self.logger = logger
    }

    /// Deletes every channel past its time; returns how many went.
    @discardableResult
    package func run() async throws -> Int {
        var deleted = 0
        while true {
            let claimed = try await store.claimExpired(limit: batchSize, lease: lease)
            for channel in claimed where try await delete(channel) { deleted += 1 }
            if claimed.count < batchSize { return deleted }
        }
    }

    private func delete(_ channel: BroadcastChannel) async throws -> Bool {
        guard let channelID = channel.channelID, let app = try await tenancy.app(id: channel.appID) else { return false }
        guard let destination = app.channelDestination else {
            logger.warning(
                "ended channel not deleted: the app has no APNs signing key",
                metadata: ["app_id": "\(app.identifier)", "activity_id": "\(channel.activityID)"])
            return false
        }
        let result = await manager.delete(channelID, for: destination)
        guard result.channelIsDeleted else {
            let failure = ChannelManagementFailure(result, action: "delete", activityID: channel.activityID)
            logger.warning(
                "ended channel not deleted, will retry",
                metadata: ["app_id": "\(app.identifier)", "activity_id": "\(channel.activityID)", "error": "\(failure.logEntry.message)"])
            try await store.log(failure.logEntry, app: app)
            return false
        }
        return try await store.delete(rowID: channel.id)
    }
}
