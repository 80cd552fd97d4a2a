import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Counts a batch's budgeted updates against their apps' priority budgets (`livegate_count_priority`,
/// migration 022: a few set-based statements however large the batch, each activity's hour row locked
/// in turn, so gateways delivering one activity share one count), and logs each first lowering of an
/// activity's hour in the same transaction. Only batches with a budgeted update run it: apps without a
/// budget pay nothing.
enum PriorityCountStatement {
    static let statement = PostgresStatement(
        name: "livegate_count_priority",
        sql: """
            SELECT ord, standing, first_lowered
            FROM livegate_count_priority($1::text[]::uuid[], $2::text[], $3::text[]::boolean[], $4::text[]::int[],
                                         $5::text[]::int[], $6::text[]::boolean[], $7::text[]::boolean[])
            """)

    static func count(_ counts: [PriorityCount], on connection: PostgresConnection) throws -> [UUID: PriorityStanding] {
        var standings: [UUID: PriorityStanding] = [:]
        var lowered: [UUID: [ActivityLogEntry]] = [:]
        for round in rounds(counts) {
            let rows = try connection.query(
                statement,
                [
                    round.map(\.dispatch.appID.lowercasedText), round.map(\.dispatch.activityID), round.map { flag($0.keepsPriority) },
                    round.map { String($0.budget.perHour) },
                    // Without a frequent budget, devices that allow frequent updates have the standard one.
                    round.map { String($0.budget.frequentPerHour ?? $0.budget.perHour) },
                    round.map { flag($0.toStandardDevices) }, round.map { flag($0.toFrequentDevices) },
                ])
            for row in rows {
                let count = round[try row.require("ord", as: Int.self) - 1]
                let standing = PriorityStanding(
                    budget: count.budget, position: try row.require("standing"), keepsPriority: count.keepsPriority,
                    firstLowered: try row.require("first_lowered"))
                standings[count.dispatch.id] = standing
                if standing.firstLowered { lowered[count.dispatch.appID, default: []].append(standing.loweredEntry(for: count.dispatch)) }
            }
        }
        for (appID, entries) in lowered {
            let workspaceID = counts.first { $0.dispatch.appID == appID }!.dispatch.workspaceID
            try ActivityLogStatement.insert(entries, workspaceID: workspaceID, appID: appID, on: connection)
        }
        return standings
    }

    /// The counts in rounds where each activity comes once, in the order given (oldest first): the
    /// statement counts each round's activities side by side, and a burst's updates one after another.
    static func rounds(_ counts: [PriorityCount]) -> [[PriorityCount]] {
        var rounds: [[PriorityCount]] = []
        var seen: [ActivityKey: Int] = [:]
        for count in counts {
            let key = ActivityKey(appID: count.dispatch.appID, activityID: count.dispatch.activityID)
            let round = seen[key, default: 0]
            seen[key] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(count)
        }
        return rounds
    }

    private struct ActivityKey: Hashable {
        let appID: UUID
        let activityID: String
    }

    private static func flag(_ value: Bool) -> String { value ? "t" : "f" }
}
