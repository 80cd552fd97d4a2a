import APNsCore
import Foundation
import LiveGateDomain

/// A validated message whose app is known and whose payload is built: all that is left is to commit it.
struct PreparedMessage {
    let app: App
    let common: CommonMessageFields
    let idempotency: IdempotencyClaim?
    let acceptedAt: Date
    let payload: [UInt8]

    func dispatch(event: LiveActivityEvent, externalID: String?) -> Dispatch {
        Dispatch(
            id: DispatchIdentifier.make(acceptedAt: acceptedAt), workspaceID: app.workspaceID, appID: app.id, event: event,
            activityID: common.activityID,
            externalID: externalID, payload: payload, priority: common.priority,
            expiresAt: (common.sendAt ?? acceptedAt) + MessageClock.defaultExpiry, sendAt: common.sendAt)
    }
}
