import Foundation
import UUIDText

/// APNs's answer to one device's push: the dispatch, the device's row (`activity_tokens` for an update
/// or end, `dispatch_targets` for a start) and the status. Recorded with the page or batch that sent it,
/// so the activity resource shows what each device was last sent.
package struct DeviceAnswer: Sendable, Equatable {
    package let dispatchID: UUID
    package let cursor: Int64
    package let status: Int

    package init(dispatchID: UUID, cursor: Int64, status: Int) {
        self.dispatchID = dispatchID
        self.cursor = cursor
        self.status = status
    }

    /// The distinct dispatches of `answers` as text, and each answer's 1-based position among them: a
    /// page of a thousand answers names its one dispatch once, not a thousand times.
    package static func dispatches(of answers: [DeviceAnswer]) -> (dispatches: [String], positions: [String]) {
        var dispatches: [String] = []
        var position: [UUID: String] = [:]
        let positions = answers.map { answer in
            if let known = position[answer.dispatchID] { return known }
            dispatches.append(answer.dispatchID.lowercasedText)
            let next = String(dispatches.count)
            position[answer.dispatchID] = next
            return next
        }
        return (dispatches, positions)
    }
}
