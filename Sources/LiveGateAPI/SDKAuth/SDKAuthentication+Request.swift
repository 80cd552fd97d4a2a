import Foundation
import HTTPTypes
import LiveGateDomain

extension SDKAuthentication {
    /// Lets an SDK call naming `externalID` through when the app does not enforce SDK authentication,
    /// or when `authorization` carries a valid JWT for exactly that user: 401 without one or with a bad
    /// one, 403 with another user's. The user is compared byte for byte, as it is stored.
    func authorize(externalID: String, authorization: String?, now: Date) throws(APIError) {
        guard enforced else { return }
        guard let token = APIKeyMiddleware.bearerToken(authorization) else {
            throw APIError(
                .unauthorized, "Missing SDK authentication token",
                errors: [
                    "this app requires SDK authentication for calls that name an external_id: send 'Authorization: Bearer <JWT>' signed by your server for that user"
                ],
                headers: [.wwwAuthenticate: #"Bearer realm="push_token_tag""#])
        }
        let subject: String
        do {
            subject = try verify(token: token, now: now)
        } catch {
            throw APIError(
                .unauthorized, "Invalid SDK authentication token", errors: [error.message],
                headers: [.wwwAuthenticate: #"Bearer realm="push_token_tag", error="invalid_token""#])
        }
        guard Array(subject.utf8) == Array(externalID.utf8) else {
            throw APIError.accessDenied(
                "the SDK authentication token is for another user: its sub is not this call's external_id")
        }
    }
}
