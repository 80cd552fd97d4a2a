/// Wakes the delivery engine: the API rings it after committing a dispatch, so this gateway's own
/// messages go out at once instead of at the next poll. Rings that come while the engine is busy
/// collapse into one.
public final class DeliveryDoorbell: Sendable {
    let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        (rings, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func ring() {
        continuation.yield()
    }

    /// No more rings: the engine's wait ends.
    func close() {
        continuation.finish()
    }
}
