import Foundation

/// Storage of users' custom attributes.
package protocol UserAttributesStore: Sendable {
    /// Applies the updates in one transaction, creating unknown users (unless an update says not to);
    /// returns how many were applied (a skipped unknown user is not).
    func apply(_ updates: [UserAttributesUpdate], workspaceID: UUID) async throws -> Int
}
