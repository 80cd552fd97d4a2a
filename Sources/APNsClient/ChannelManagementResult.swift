import APNsCore

/// How one channel management request ended: what APNs answered, or why APNs was not asked or did not
/// answer. What an answer means is the caller's to decide.
public enum ChannelManagementResult: Sendable, Equatable {
    /// APNs answered, with any status.
    case answered(ChannelManagementResponse)
    /// The credential's key cannot sign a provider token: nothing was sent.
    case unsignable(APNsKeyError)
    /// No answer: connection, TLS, timeout or shutdown.
    case unreachable(HTTP2TransportError)
}
