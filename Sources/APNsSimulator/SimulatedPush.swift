import Foundation

/// A push the simulator accepted (answered 200), as it arrived.
package struct SimulatedPush: Sendable {
    package let deviceToken: String
    /// Lower-case names.
    package let headers: [String: String]
    package let payload: [UInt8]
    package let receivedAt: Date
    /// The connection it came on (numbered from 1 in the order the simulator accepted them) and its
    /// stream there.
    package let connection: Int
    package let stream: Int
    /// The fault it met instead of a plain answer (`SimulatedFault`), if one did.
    package let fault: SimulatedFault?
}

/// How the simulator answers pushes to one device token, beyond checking them.
package enum SimulatedBehavior: Sendable, Equatable {
    /// 410 `Unregistered`, with the time the token became invalid.
    case unregistered
    /// This status and reason, every time; with a `retry-after` header when `retryAfter` is given (its
    /// text as sent: seconds, or an HTTP date).
    case fail(status: Int, reason: String, retryAfter: String? = nil)
    /// This status and reason for the next `times` pushes, then normal answers; `retryAfter` as above.
    /// `{"status":429,"times":3}` plays APNs throttling one device (429 TooManyRequests).
    case failFirst(times: Int, status: Int, reason: String, retryAfter: String? = nil)
    /// Answer normally, but only after this long.
    case delay(milliseconds: Int)
}
