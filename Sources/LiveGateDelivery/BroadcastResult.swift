import APNsClient
import APNsCore
import LiveGateDomain

/// How one broadcast to a channel ended, after any retries: what APNs's answer means for the channel,
/// beside `PushResult`'s meaning for a device.
package enum BroadcastResult: RetriedResult, Equatable {
    case delivered
    /// APNs no longer knows the channel (404, 410, 400 `ChannelNotRegistered` or `BadChannelId`): it is
    /// marked gone, and devices keep their per-device pushes.
    case channelGone(status: Int, reason: APNsReason?)
    /// APNs refused it and retrying cannot help.
    case refused(status: Int, reason: APNsReason?)
    /// Every try got 429, 5xx or no answer.
    case gaveUp(attempts: Int, lastProblem: SendProblem)
    /// APNs refused the provider token, even a freshly signed one.
    case credentialRejected(reason: APNsReason)
    /// The app's key cannot sign: nothing was sent.
    case credentialUnusable

    package init(finalAnswer response: APNsResponse) {
        switch (response.status, response.reason) {
        case (200, _): self = .delivered
        case (404, let reason), (410, let reason): self = .channelGone(status: response.status, reason: reason)
        case (let status, .channelNotRegistered?), (let status, .badChannelId?):
            self = .channelGone(status: status, reason: response.reason)
        case (403, let reason?) where response.rejectsProviderToken: self = .credentialRejected(reason: reason)
        case (let status, let reason): self = .refused(status: status, reason: reason)
        }
    }
}
