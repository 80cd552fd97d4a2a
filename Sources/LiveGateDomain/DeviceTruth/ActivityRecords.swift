import Foundation

/// Activities as API resources, always within one app (the caller checked it is the key's workspace's).
package protocol ActivityRecords: Sendable {
    /// `after`: the cursor of the previous page of devices; `limit`: devices per page.
    func activity(appID: UUID, activityID: String, after: DeviceCursor?, limit: Int) async throws -> ActivityView
}
