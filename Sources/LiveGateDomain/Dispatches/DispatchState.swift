/// A dispatch's status: the one vocabulary of the API (`GET /messages/live_activity/dispatches/{id}`),
/// the `status` column (where `scheduled` is a `pending` one with `send_at` ahead) and delivery, which
/// ends a dispatch `done`, `failed`, `superseded` or `cancelled`.
package enum DispatchState: String, Sendable, CaseIterable {
    /// Accepted with a `send_at` still ahead.
    case scheduled
    /// Due, waiting for a delivery worker (or handed back to be tried again later).
    case pending
    case delivering
    case done
    case failed
    /// A newer update or end covering its audience took over; what it sent is counted.
    case superseded
    case cancelled
}
