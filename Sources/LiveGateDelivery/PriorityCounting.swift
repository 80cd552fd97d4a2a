import Foundation
import LiveGateDomain

/// Where budgeted updates stand against their apps' priority budgets: counted in one statement for
/// all of them, except those an earlier claim counted and recorded, which keep their place.
package enum PriorityCounting {
    package static func standings(
        of counts: [(claimed: ClaimedDispatch, count: PriorityCount)], queue: any DispatchBatchQueue
    ) async throws -> [UUID: PriorityStanding] {
        var standings: [UUID: PriorityStanding] = [:]
        var uncounted: [PriorityCount] = []
        for (claimed, count) in counts {
            if let position = claimed.countedPosition {
                standings[claimed.dispatch.id] = PriorityStanding(
                    budget: count.budget, position: position, keepsPriority: count.keepsPriority)
            } else {
                uncounted.append(count)
            }
        }
        if !uncounted.isEmpty {
            standings.merge(try await queue.countPriority(uncounted)) { _, counted in counted }
        }
        return standings
    }
}
