import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport

extension Tenant {
    /// An update of `activityID` carrying `{"score":N}`, for tests that commit through the store rather
    /// than the API.
    func update(score: Int, activityID: String = "m", externalID: String? = nil) -> Dispatch {
        Dispatch(
            workspaceID: workspace.id, appID: app.id, event: .update, activityID: activityID, externalID: externalID,
            payload: Array("{\"score\":\(score)}".utf8), priority: .immediate, expiresAt: Date().addingTimeInterval(60))
    }
}

extension PostgresDispatchStore {
    /// Commits an update as the API would, without an idempotency key.
    func commit(_ dispatch: Dispatch) async throws {
        _ = try await commitUpdate(dispatch, idempotency: nil) { _ in StoredResponse(status: 201, body: "") }
    }
}
