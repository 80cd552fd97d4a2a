import APNsCore

/// How sending one push ended, as the sender saw it: what APNs answered, or why APNs was not asked or
/// did not answer. What that means (deliver, retry, remove the token) is the caller's to decide.
public enum APNsSendResult: Sendable, Equatable {
    /// APNs answered, with any status.
    case answered(APNsResponse)
    /// The credential's key cannot sign a provider token (not a P-256 PKCS#8 key): nothing was sent.
    case unsignable(APNsKeyError)
    /// No answer: connection, TLS, timeout or shutdown.
    case unreachable(HTTP2TransportError)
}
