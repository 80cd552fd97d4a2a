import Foundation

/// Dispatches read and cancelled through the API, always within one workspace: another workspace's
/// dispatch is not found.
package protocol DispatchRecords: Sendable {
    func record(_ id: UUID, workspaceID: UUID) async throws -> DispatchRecord?
    /// Cancels a dispatch that has not finished: a scheduled or pending one ends at once, one being
    /// delivered is marked for its worker to stop at its next batch.
    func cancel(_ id: UUID, workspaceID: UUID) async throws -> DispatchCancellation
}

/// What a `DELETE` came to.
package enum DispatchCancellation: Sendable, Equatable {
    /// Cancelled now; the record as it is after the cancellation.
    case cancelled(DispatchRecord)
    /// It had already ended (or was superseded): nothing changed.
    case alreadyFinished(DispatchRecord)
    case notFound
}
