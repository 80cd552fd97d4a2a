/// The push-to-starts one SDK call confirmed on its device: for each, how long it waited from APNs's
/// answer (from its acceptance, when the answer was not recorded yet) to the confirmation.
public struct ConfirmedStarts: Sendable, Equatable {
    public var waits: [Duration]

    public init(waits: [Duration] = []) {
        self.waits = waits
    }

    public var count: Int { waits.count }
}
