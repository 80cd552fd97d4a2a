/// Why a dispatch stops before its fan-out is over, and the status it ends with.
package enum DispatchStop: String, Sendable, Equatable {
    /// A newer update or end covers its audience: the rest of its pushes would show an older state.
    case superseded
    /// Its `DELETE` came.
    case cancelled

    package var status: DispatchState {
        switch self {
        case .superseded: .superseded
        case .cancelled: .cancelled
        }
    }
}
