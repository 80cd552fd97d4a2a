import LiveGateDomain
import Logging

/// What every delivery works with, whichever shape its dispatches take (a fan-out page by page, small
/// dispatches in a batch): the queue, how pushes go out, the settings, this worker and its log, whether
/// the gateway is stopping, and how the worker proves a dispatch is still its own. The engine makes one
/// per delivery (`DeliveryEngine.context`).
struct DeliveryContext: Sendable {
    let queue: any DeliveryQueue
    let sending: PushSending
    let settings: DeliverySettings
    let worker: String
    let logger: Logger
    let isStopping: @Sendable () -> Bool
    /// Checked before sending more: after its session was lost, the worker proves the dispatch is
    /// still its own.
    let ownership: DispatchOwnership
}

/// A delivery working in a `DeliveryContext`, reading its parts by name.
protocol DeliveryStage: Sendable {
    var context: DeliveryContext { get }
}

extension DeliveryStage {
    var queue: any DeliveryQueue { context.queue }
    var sending: PushSending { context.sending }
    var settings: DeliverySettings { context.settings }
    var worker: String { context.worker }
    var logger: Logger { context.logger }
    var isStopping: @Sendable () -> Bool { context.isStopping }
    var ownership: DispatchOwnership { context.ownership }
}
