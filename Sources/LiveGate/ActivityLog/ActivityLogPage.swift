import Foundation

/// One page of a workspace's activity log, newest first, with the hours whose entries were only counted.
public struct ActivityLogPage: Sendable {
    /// An entry as stored, with what the reader shows beside it.
    public struct Entry: Sendable {
        public let id: Int64
        public let occurredAtMicroseconds: Int64
        /// The app's identifier (`app_id` in requests); nil if the app was deleted since.
        public let appIdentifier: String?
        public let entry: ActivityLogEntry
    }

    /// One app's entries of one type in one clock hour, beyond the 100 kept.
    public struct SuppressedHour: Sendable {
        public let appIdentifier: String?
        public let type: ActivityLogType
        /// The hour's start (UTC).
        public let hour: Date
        public let total: Int

        public var stored: Int { min(total, ActivityLogEntry.storedPerTypePerHour) }
        public var suppressed: Int { max(0, total - ActivityLogEntry.storedPerTypePerHour) }
    }

    public let entries: [Entry]
    /// Set when older entries match too.
    public let nextCursor: KeysetCursor?
    public let suppressedHours: [SuppressedHour]
}

/// Reads the message activity log of one workspace.
public protocol ActivityLogRepository: Sendable {
    /// `appID` is the app's row id, already checked to belong to the workspace.
    func page(workspaceID: UUID, appID: UUID?, query: ActivityLogQuery) async throws -> ActivityLogPage
}
