/// A push-to-start's devices since it was sent: how many APNs took it for, how many of those showed the
/// started activity (its update token arrived, or it reported itself shown), and how fast.
public struct StartConfirmationFigures: Sendable, Equatable {
    /// Devices APNs answered 200 for, or that confirmed it before the answer was recorded: `confirmed`
    /// plus `unconfirmed`.
    public var sent: Int
    public var confirmed: Int
    /// Sent and not confirmed (yet).
    public var unconfirmed: Int
    /// From APNs's answer to the confirmation, the median over the confirmed devices; nil when none.
    public var medianSecondsToConfirm: Double?

    public init(sent: Int, confirmed: Int, unconfirmed: Int, medianSecondsToConfirm: Double?) {
        self.sent = sent
        self.confirmed = confirmed
        self.unconfirmed = unconfirmed
        self.medianSecondsToConfirm = medianSecondsToConfirm
    }
}
