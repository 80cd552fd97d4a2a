/// A push-to-start's devices since it was sent: how many APNs took it for, how many of those showed the
/// started activity (its update token arrived, or it reported itself shown), and how fast.
package struct StartConfirmationFigures: Sendable, Equatable {
    /// Devices APNs answered 200 for, or that confirmed it before the answer was recorded: `confirmed`
    /// plus `unconfirmed`.
    package var sent: Int
    package var confirmed: Int
    /// Sent and not confirmed (yet).
    package var unconfirmed: Int
    /// From APNs's answer to the confirmation, the median over the confirmed devices; nil when none.
    package var medianSecondsToConfirm: Double?

    package init(sent: Int, confirmed: Int, unconfirmed: Int, medianSecondsToConfirm: Double?) {
        self.sent = sent
        self.confirmed = confirmed
        self.unconfirmed = unconfirmed
        self.medianSecondsToConfirm = medianSecondsToConfirm
    }
}
