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
    /// This status and reason, every time.
    case fail(status: Int, reason: String)
    /// This status and reason for the next `times` pushes, then normal answers.
    case failFirst(times: Int, status: Int, reason: String)
    /// Answer normally, but only after this long.
    case delay(milliseconds: Int)
}
