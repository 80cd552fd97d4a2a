import APNsClient
import APNsCore
import LiveGateDomain

extension ChannelManagementResult {
    /// Whether a delete left APNs without the channel: done now, or forgotten before (404, 410), which
    /// is gone all the same.
    package var channelIsDeleted: Bool {
        guard case .answered(let answer) = self else { return false }
        return [200, 204, 404, 410].contains(answer.status)
    }
}
