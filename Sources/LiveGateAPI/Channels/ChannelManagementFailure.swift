import APNsClient
import APNsCore
import HTTPTypes
import LiveGateDomain

/// A channel management request APNs did not carry out, as the API answers it and the activity log
/// records it: never a 500, since the fault is APNs's or the app's credential, not the gateway's.
package struct ChannelManagementFailure: Error {
    package let error: APIError
    package let logEntry: ActivityLogEntry

    /// `action`: what was asked, for people ("create", "delete").
    package init(_ result: ChannelManagementResult, action: String, activityID: String) {
        switch result {
        case .unsignable(let keyError):
            let message = "The app's APNs signing key cannot sign a provider token (\(keyError)): check its key id, team id and .p8 key"
            error = APIError(.badRequest, "Invalid push credential", errors: [message])
            logEntry = ActivityLogEntry(
                type: .invalidPushCredential, message: "Could not \(action) the broadcast channel: \(message)", activityID: activityID)
        case .unreachable(let transportError):
            let message = "APNs could not be reached to \(action) the broadcast channel: \(transportError)"
            error = APIError(.badGateway, "APNs unavailable", errors: [message])
            logEntry = ActivityLogEntry(type: .other, message: message, activityID: activityID)
        case .answered(let answer):
            let reason = answer.reason?.rawValue
            let message = "APNs refused to \(action) the broadcast channel: \(answer.status)" + (reason.map { " \($0)" } ?? "")
            let credential = answer.response.rejectsProviderToken
            error = APIError(
                credential ? .badRequest : .badGateway, credential ? "Invalid push credential" : "APNs refused the request",
                errors: [message])
            logEntry = ActivityLogEntry(
                type: credential ? .invalidPushCredential : .other, message: message, activityID: activityID,
                apnsStatus: answer.status, apnsReason: reason)
        }
    }
}
