import APNsCore

/// One device a dispatch fans out to: a row of `activity_tokens` (update, end) or of
/// `dispatch_targets` (start), in the order the fan-out pages through them.
package struct FanoutTarget: Sendable, Equatable {
    /// The row's id: the fan-out's keyset cursor.
    package let cursor: Int64
    package let token: PushToken
    /// The device's user, when known: shown in the activity log.
    package let externalID: String?
    /// Whether the device's app reported that the user allows frequent updates (its latest report for
    /// the app); read only for an update under a frequent priority budget, nil otherwise or unreported.
    package let frequentPushesEnabled: Bool?

    package init(cursor: Int64, token: PushToken, externalID: String? = nil, frequentPushesEnabled: Bool? = nil) {
        self.cursor = cursor
        self.token = token
        self.externalID = externalID
        self.frequentPushesEnabled = frequentPushesEnabled
    }
}
