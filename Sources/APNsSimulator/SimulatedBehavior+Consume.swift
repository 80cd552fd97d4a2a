import Foundation
import NIOCore

extension SimulatedBehavior {
    /// Called under the simulator's lock for a request that passed APNs's checks: the failure the
    /// behavior set for `key` makes of it (counted in `rejections`; a `failFirst` counts down), or how
    /// long to wait before answering normally.
    static func consume(
        _ behaviors: inout [String: SimulatedBehavior], key: String, rejections: inout [String: Int], now: Date
    ) -> (failure: (status: Int, body: [UInt8], headers: [(name: String, value: String)])?, delay: TimeAmount?) {
        let failure: (status: Int, reason: String, retryAfter: String?)
        switch behaviors[key] {
        case .unregistered?:
            failure = (410, "Unregistered", nil)
        case .fail(let status, let reason, let retryAfter)?:
            failure = (status, reason, retryAfter)
        case .failFirst(let times, let status, let reason, let retryAfter)? where times > 0:
            behaviors[key] =
                times > 1 ? .failFirst(times: times - 1, status: status, reason: reason, retryAfter: retryAfter) : nil
            failure = (status, reason, retryAfter)
        case .delay(let milliseconds)?:
            return (nil, .milliseconds(Int64(milliseconds)))
        default:
            return (nil, nil)
        }
        rejections[failure.reason, default: 0] += 1
        return (
            (
                failure.status, APNsSimulator.reasonBody(failure.reason, status: failure.status, now: now),
                failure.retryAfter.map { [("retry-after", $0)] } ?? []
            ), nil
        )
    }
}
