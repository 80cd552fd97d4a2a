import Foundation

/// One page of a workspace's activity log, newest first, with the hours whose entries were only counted.
package struct ActivityLogPage: Sendable {
    /// An entry as stored, with what the reader shows beside it.
    package struct Entry: Sendable {
        package let id: Int64
        package let occurredAtMicroseconds: Int64
        /// The app's identifier (`app_id` in requests); nil if the app was deleted since.
        package let appIdentifier: String?
        package let entry: ActivityLogEntry

        package init(id: Int64, occurredAtMicroseconds: Int64, appIdentifier: String?, entry: ActivityLogEntry) {
            self.id = id
            self.occurredAtMicroseconds = occurredAtMicroseconds
            self.appIdentifier = appIdentifier
            self.entry = entry
        }
    }

    /// One app's entries of one type in one clock hour, beyond the 100 kept.
    package struct SuppressedHour: Sendable {
        package let appIdentifier: String?
        package let type: ActivityLogType
        /// The hour's start (UTC).
        package let hour: Date
        package let total: Int

        package init(appIdentifier: String?, type: ActivityLogType, hour: Date, total: Int) {
            self.appIdentifier = appIdentifier
            self.type = type
            self.hour = hour
            self.total = total
        }

        package var stored: Int { min(total, ActivityLogEntry.storedPerTypePerHour) }
        package var suppressed: Int { max(0, total - ActivityLogEntry.storedPerTypePerHour) }
    }

    package let entries: [Entry]
    /// Set when older entries match too.
    package let nextCursor: KeysetCursor?
    package let suppressedHours: [SuppressedHour]

    package init(entries: [Entry], nextCursor: KeysetCursor?, suppressedHours: [SuppressedHour]) {
        self.entries = entries
        self.nextCursor = nextCursor
        self.suppressedHours = suppressedHours
    }
}

/// Reads the message activity log of one workspace.
package protocol ActivityLogRepository: Sendable {
    /// `appID` is the app's row id, already checked to belong to the workspace.
    func page(workspaceID: UUID, appID: UUID?, query: ActivityLogQuery) async throws -> ActivityLogPage
}
