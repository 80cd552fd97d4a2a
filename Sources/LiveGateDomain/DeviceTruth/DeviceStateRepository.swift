/// Storage of what the SDK reports of activities on devices, and what a report changes: an ended or
/// dismissed activity's update token retired, a shown one's push-to-starts confirmed.
package protocol DeviceStateRepository: Sendable {
    func report(_ report: DeviceStateReport, app: App) async throws -> DeviceStateOutcome
}

/// What one report did.
package struct DeviceStateOutcome: Sendable, Equatable {
    /// False when the device had already reported a newer state: the state changed nothing (a
    /// `frequentPushesEnabled` newer than the stored one is still kept).
    package var applied: Bool
    package var confirmedStarts: ConfirmedStarts

    package init(applied: Bool, confirmedStarts: ConfirmedStarts = ConfirmedStarts()) {
        self.applied = applied
        self.confirmedStarts = confirmedStarts
    }
}
