import APNsCore
import Foundation

/// Where apps' ActivityAttributes types are kept, shared by every gateway.
package protocol ActivityTypeStore: Sendable {
    /// Creates or replaces the type; true when it was new.
    func put(_ type: ActivityType) async throws -> Bool
    /// Every type of the app, by name.
    func types(appID: UUID) async throws -> [ActivityType]
    /// Removes the type; false when the app had none of that name.
    func delete(name: String, appID: UUID) async throws -> Bool
    /// The types the activity's devices reported with their update tokens (or that started it).
    func typesOfActivity(appID: UUID, activityID: String) async throws -> [String]
    /// Writes a warn-mode mismatch to the activity log, unless one was written for the activity this
    /// hour; returns whether it was written.
    func recordMismatch(_ entry: ActivityLogEntry, workspaceID: UUID, appID: UUID) async throws -> Bool
}
