import LiveGateDomain
import Logging
import NIOConcurrencyHelpers

/// Keeps the engine's `DeliveryWorkerSession` while it runs: takes it, watches it, and takes it again
/// whenever it is lost (a database restart ends every session). Claims and deliveries ask whether it is
/// held now. Each time it is taken the generation grows, so a delivery can tell that its session was lost
/// since its claim, and that another worker may have taken its dispatch over in between.
final class DeliveryLiveness: Sendable {
    struct Held: Sendable, Equatable {
        /// What claims record, for other workers to test.
        let session: Int32
        let generation: Int
    }

    private struct State {
        var held: Held?
        var generation = 0
        /// A loss is logged once, not on every failed try to take the session again.
        var lossReported = false
    }

    private let session: any DeliveryWorkerSession
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    /// How long a lost session waits between tries; how often a held one is looked at.
    static let retryInterval = Duration.milliseconds(250)
    static let watchInterval = Duration.milliseconds(500)

    init(session: any DeliveryWorkerSession, logger: Logger) {
        self.session = session
        self.logger = logger
    }

    var held: Held? { state.withLockedValue { $0.held } }

    /// Until `isStopping`: holds the session, taking it again when lost; `onTaken` runs each time it is.
    func keep(isStopping: @Sendable () -> Bool, onTaken: @Sendable () -> Void) async {
        while !isStopping(), !Task.isCancelled {
            if held != nil {
                if await session.waitWhileHeld(upTo: Self.watchInterval) { continue }
                state.withLockedValue { $0.held = nil }
                logger.warning("delivery session lost: no page starts until it is taken again")
                continue
            }
            do {
                if let number = try await session.take() {
                    let (held, wasLost) = state.withLockedValue { state in
                        state.generation += 1
                        state.held = Held(session: number, generation: state.generation)
                        defer { state.lossReported = false }
                        return (state.held!, state.generation > 1)
                    }
                    logger.log(
                        level: wasLost ? .info : .debug, "delivery session held",
                        metadata: ["session": "\(held.session)", "generation": "\(held.generation)"])
                    onTaken()
                    continue
                }
            } catch {
                let first = state.withLockedValue { state in
                    defer { state.lossReported = true }
                    return !state.lossReported
                }
                logger.log(level: first ? .warning : .debug, "could not take the delivery session", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: Self.retryInterval)
        }
    }

    /// The session once it is held (looked at every 20 ms); nil if stopping first.
    func waitUntilHeld(isStopping: () -> Bool) async -> Held? {
        while true {
            if let held { return held }
            if isStopping() || Task.isCancelled { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Ends the session: other workers may take over whatever is still claimed under it.
    func close() async {
        state.withLockedValue { $0.held = nil }
        await session.close()
    }
}
