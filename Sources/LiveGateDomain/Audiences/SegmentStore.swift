import APNsCore
import Foundation

/// Where a workspace's segments are kept.
package protocol SegmentStore: Sendable {
    func create(name: String, audience: JSONValue, workspaceID: UUID) async throws -> Segment
    /// A page of `pageSize` segments by creation, oldest first unless `newestFirst`.
    func list(workspaceID: UUID, page: Int, pageSize: Int, newestFirst: Bool) async throws -> [Segment]
    func segment(id: UUID, workspaceID: UUID) async throws -> Segment?
    /// False when the workspace has no such segment.
    func delete(id: UUID, workspaceID: UUID) async throws -> Bool
    /// Those of `patterns` the database's regular expressions cannot compile: the dialect that will
    /// evaluate them is the one to ask.
    func invalidRegularExpressions(_ patterns: [String]) async throws -> [String]
}
