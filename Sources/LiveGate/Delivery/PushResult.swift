import APNsCore

/// How one device's push ended, after any retries.
enum PushResult: Sendable {
    case delivered
    /// 410 or 400 `BadDeviceToken`: the token is dead and is removed.
    case tokenRemoved(status: Int, reason: APNsReason, invalidSinceMilliseconds: Int64?)
    /// APNs refused it and retrying cannot help (400s, 413).
    case refused(status: Int, reason: APNsReason?)
    /// Every try got 429, 5xx or no answer.
    case gaveUp(attempts: Int, lastProblem: RetriableProblem)
    /// APNs refused the provider token, even a freshly signed one.
    case credentialRejected(reason: APNsReason)
    /// The app's key cannot sign (not a P-256 PKCS#8 key).
    case credentialUnusable
    case noCredential

    /// Why the last try of a push that may be retried failed.
    enum RetriableProblem: Sendable {
        case answered(status: Int, reason: APNsReason?)
        case unreachable(HTTP2TransportError)
    }

    /// True when APNs was not reached at all: the whole dispatch is worth retrying later.
    var isUnreachable: Bool {
        if case .gaveUp(_, .unreachable) = self { return true }
        return false
    }

    var isCredentialProblem: Bool {
        switch self {
        case .credentialRejected, .credentialUnusable, .noCredential: true
        default: false
        }
    }
}
