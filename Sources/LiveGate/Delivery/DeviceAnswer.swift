import Foundation

/// APNs's answer to one device's push: the dispatch, the device's row (`activity_tokens` for an update
/// or end, `dispatch_targets` for a start) and the status. Recorded with the page or batch that sent it,
/// so the activity resource shows what each device was last sent.
public struct DeviceAnswer: Sendable, Equatable {
    public let dispatchID: UUID
    public let cursor: Int64
    public let status: Int

    public init(dispatchID: UUID, cursor: Int64, status: Int) {
        self.dispatchID = dispatchID
        self.cursor = cursor
        self.status = status
    }
}
