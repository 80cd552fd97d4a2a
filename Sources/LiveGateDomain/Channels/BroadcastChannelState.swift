/// Where a channel is in its life: claimed while APNs creates it, live, ending (deleted at APNs after a
/// time), or gone (APNs forgot it).
package enum BroadcastChannelState: String, Sendable, Equatable {
    case creating
    case live
    case ending
    case gone
}
