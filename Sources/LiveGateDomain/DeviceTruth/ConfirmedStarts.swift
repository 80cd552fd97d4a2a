/// The push-to-starts one SDK call confirmed on its device: for each, how long it waited from APNs's
/// answer (from its acceptance, when the answer was not recorded yet) to the confirmation.
package struct ConfirmedStarts: Sendable, Equatable {
    package var waits: [Duration]

    package init(waits: [Duration] = []) {
        self.waits = waits
    }

    package var count: Int { waits.count }
}
