import APNsCore
import Foundation

extension ActivityTypeDirectory {
    /// A message accepted with warn-mode mismatches: counted, and written to the activity log once per
    /// activity and hour (the store keeps that across gateways; this process remembers what it wrote,
    /// so a burst of updates costs one write).
    package func noteWarnings(
        _ verdict: PayloadVerdict, event: LiveActivityEvent, app: App, activityID: String, dispatchID: UUID, now: Date
    ) async throws {
        guard !verdict.warnings.isEmpty else { return }
        GatewayMetrics.contentStateMismatch(event)
        let hour = Int(now.timeIntervalSince1970 / 3600)
        let key = "\(app.id.uuidString)/\(hour)/\(activityID)"
        guard loggedThisHour.value(for: key) == nil else { return }
        let entry = ActivityLogEntry(
            type: .contentStateMismatch, message: Self.message(verdict.warnings), activityID: activityID, dispatchID: dispatchID)
        _ = try await store.recordMismatch(entry, workspaceID: app.workspaceID, appID: app.id)
        loggedThisHour.store(true, for: key)
    }

    /// Names the type and every mismatch, as the API would have refused it in enforce mode.
    static func message(_ findings: [PayloadVerdict.Finding]) -> String {
        findings.map { finding in
            "accepted although \(finding.typeName) would not decode it (warn mode), so the phone shows nothing: "
                + finding.mismatches.map(\.description).joined(separator: "; ")
        }.joined(separator: " | ")
    }
}
