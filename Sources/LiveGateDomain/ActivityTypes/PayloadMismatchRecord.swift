import Foundation

/// A warn-mode mismatch as kept for an activity: the first of its hour, with the message the activity
/// log shows and the dispatch that carried it.
package struct PayloadMismatchRecord: Sendable, Equatable {
    package var hour: Date
    package var message: String
    package var dispatchID: UUID?

    package init(hour: Date, message: String, dispatchID: UUID?) {
        self.hour = hour
        self.message = message
        self.dispatchID = dispatchID
    }
}
