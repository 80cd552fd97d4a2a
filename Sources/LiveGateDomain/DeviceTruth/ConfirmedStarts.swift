/// The push-to-starts one SDK call confirmed on its device: for each, how long it waited from APNs's
/// answer (from its acceptance, when the answer was not recorded yet) to the confirmation.
package struct ConfirmedStarts: Sendable, Equatable {
    package var waits: [Duration]
    /// The ActivityAttributes type the confirmed starts named: the started activity's type.
    package var attributesType: String?

    package init(waits: [Duration] = [], attributesType: String? = nil) {
        self.waits = waits
        self.attributesType = attributesType
    }

    package var count: Int { waits.count }
}
