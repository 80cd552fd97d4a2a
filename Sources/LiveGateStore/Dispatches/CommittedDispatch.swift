import Foundation
import LiveGateDomain

/// A dispatch as group commit wrote it: what its commit resolved (what the API answers with), and when
/// it was accepted (the engine's `createdAt` when it is handed over).
struct CommittedDispatch<Resolution: Sendable>: Sendable {
    let resolution: Resolution
    let createdAt: Date
}
