import Foundation

/// How a delivery leaves a dispatch, whichever way it went (a fan-out page by page, or a small dispatch
/// in a batch): over with a status, or handed back to be claimed again. A delivery that lost its lease
/// to another worker leaves it nothing (nil).
package enum DispatchEnding: Sendable, Equatable {
    /// Over, with this status; a `done` one superseded or cancelled meanwhile ends as that.
    case finished(DispatchState)
    /// Handed back, to be claimed again from this time (APNs unreachable, the gateway stopping, the
    /// worker's session lost).
    case handedBack(retryAt: Date)
}
