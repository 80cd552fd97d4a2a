import APNsCore
import Foundation

/// The gateway's record of broadcast channels, one per app and activity whichever gateway asks.
package protocol ChannelStore: Sendable {
    /// Claims the activity's channel for creation unless it has one, another request is creating it, or
    /// the app already has `limit` channels (creating, live or ending). A claim older than
    /// `abandonedAfter` was left by a gateway that stopped mid-create and is taken over.
    func claim(
        app: App, activityID: String, policy: MessageStoragePolicy, limit: Int, abandonedAfter: Duration
    ) async throws -> ChannelClaim
    /// Records APNs's id for a claimed channel and makes it live; nil if the claim is no longer there.
    func complete(rowID: Int64, channelID: ChannelID) async throws -> BroadcastChannel?
    /// Drops a claim APNs did not honour, and logs why in the activity log, in one transaction.
    func abandon(rowID: Int64, app: App, logging entry: ActivityLogEntry) async throws
    /// The activity's channel in any state, or nil.
    func channel(app: App, activityID: String) async throws -> BroadcastChannel?
    /// Forgets the channel locally (after APNs deleted or forgot it); false if it was not there.
    func delete(rowID: Int64) async throws -> Bool
    /// The app's channels with an id, oldest first, after `cursor`; one more than `limit` when more follow.
    func list(app: App, after cursor: KeysetCursor?, limit: Int) async throws -> [BroadcastChannel]
    /// Starts the retention of the activity's live channel: it becomes `ending`, to be deleted at APNs
    /// after `deletingAfter` from now. False if it had no live channel.
    @discardableResult
    func end(app: App, activityID: String, deletingAfter retention: Duration) async throws -> Bool
    /// Up to `limit` ending channels past their time, leased for `lease` (their time moves on by it) so
    /// another gateway's housekeeping leaves them alone meanwhile, and takes them up again if this one fails.
    func claimExpired(limit: Int, lease: Duration) async throws -> [BroadcastChannel]
    /// An activity log entry for the app, for failures that leave no claim behind (deletes).
    func log(_ entry: ActivityLogEntry, app: App) async throws
}
