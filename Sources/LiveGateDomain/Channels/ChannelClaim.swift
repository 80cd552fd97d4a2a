/// What claiming an app's channel for an activity found.
package enum ChannelClaim: Sendable, Equatable {
    /// This caller holds the claim (a `.creating` row with this id) and must now ask APNs, then
    /// `complete` or `abandon` it.
    case claimed(rowID: Int64)
    /// The activity already has a channel.
    case existing(BroadcastChannel)
    /// Another request is creating the activity's channel right now.
    case beingCreated
    /// The app has `limit` channels already.
    case limitReached(limit: Int)
}
