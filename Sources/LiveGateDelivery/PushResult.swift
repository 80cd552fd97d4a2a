import APNsClient
import APNsCore
import LiveGateDomain

/// How one device's push ended, after any retries: what the sender's results mean for delivery,
/// decided here and nowhere else.
package enum PushResult: Sendable, Equatable, RetriedResult {
    case delivered
    /// 410 or 400 `BadDeviceToken`: the token is dead and is removed.
    case tokenRemoved(status: Int, reason: APNsReason, invalidSinceMilliseconds: Int64?)
    /// APNs refused it and retrying cannot help (400s, 413, other 403s).
    case refused(status: Int, reason: APNsReason?)
    /// Every try got 429, 5xx or no answer.
    case gaveUp(attempts: Int, lastProblem: RetriableProblem)
    /// APNs refused the provider token, even a freshly signed one.
    case credentialRejected(reason: APNsReason)
    /// The app's key cannot sign (not a P-256 PKCS#8 key): nothing was sent.
    case credentialUnusable

    package typealias RetriableProblem = SendProblem

    package init(finalAnswer response: APNsResponse) {
        switch (response.status, response.reason) {
        case (200, _):
            self = .delivered
        case (410, let reason):
            self = .tokenRemoved(status: 410, reason: reason ?? .unregistered, invalidSinceMilliseconds: response.timestamp)
        case (400, .badDeviceToken?):
            self = .tokenRemoved(status: 400, reason: .badDeviceToken, invalidSinceMilliseconds: nil)
        case (403, let reason?) where response.rejectsProviderToken:
            // The sender already renewed the token once: the credential itself is what is wrong.
            self = .credentialRejected(reason: reason)
        case (let status, let reason):
            self = .refused(status: status, reason: reason)
        }
    }

    /// The HTTP status of APNs's last answer; nil when none came (or nothing was sent).
    var apnsStatus: Int? {
        switch self {
        case .delivered: 200
        case .tokenRemoved(let status, _, _), .refused(let status, _), .gaveUp(_, .answered(let status, _)): status
        case .credentialRejected: 403
        case .gaveUp(_, .unreachable), .credentialUnusable: nil
        }
    }

    /// APNs's reason for its last answer, when it gave one.
    var apnsReason: APNsReason? {
        switch self {
        case .delivered, .credentialUnusable, .gaveUp(_, .unreachable): nil
        case .tokenRemoved(_, let reason, _), .credentialRejected(let reason): reason
        case .refused(_, let reason), .gaveUp(_, .answered(_, let reason)): reason
        }
    }

    /// True when APNs was not reached at all: the whole dispatch is worth retrying later.
    var isUnreachable: Bool {
        if case .gaveUp(_, .unreachable) = self { return true }
        return false
    }

    var isCredentialProblem: Bool {
        switch self {
        case .credentialRejected, .credentialUnusable: true
        default: false
        }
    }
}
