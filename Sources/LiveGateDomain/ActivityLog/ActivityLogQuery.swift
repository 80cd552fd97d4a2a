import Foundation

/// What `GET /message_activity_log` asks for: filters, page size and where to continue (read from the
/// query string by `ActivityLogQuery+Parse`).
package struct ActivityLogQuery: Sendable, Equatable {
    package static let defaultLimit = 50
    package static let maximumLimit = 100

    /// The app's identifier, as given (resolved to the workspace's app by the controller).
    package var appIdentifier: String?
    package var type: ActivityLogType?
    package var activityID: String?
    package var externalID: String?
    /// One dispatch's entries: what its page in the dashboard lists.
    package var dispatchID: UUID?
    /// Inclusive.
    package var since: Date?
    /// Exclusive.
    package var until: Date?
    package var limit = defaultLimit
    package var cursor: KeysetCursor?

    package init() {}
}
