import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Counts a batch's budgeted updates against their apps' priority budgets (`livegate_count_priority`,
/// migration 022: one upsert however large the batch, each activity's hour row locked in turn, so
/// gateways delivering one activity share one count), then logs each first lowering of an activity's
/// hour. Only batches with a budgeted update run it: apps without a budget pay nothing.
enum PriorityCountStatement {
    static let statement = PostgresStatement(
        name: "livegate_count_priority",
        sql: """
            SELECT app_id, activity_id, standing, lowered
            FROM livegate_count_priority($1::text[]::uuid[], $2::text[], $3::text[]::boolean[], $4::text[]::int[],
                                         $5::text[]::int[], $6::text[]::boolean[], $7::text[]::boolean[])
            """)

    /// Each count's standing. Not one transaction: the count commits on its own (without waiting for
    /// its WAL), and a crash before the log entry is written loses that entry only.
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
            let byActivity = Dictionary(
                round.map { (ActivityKey(appID: $0.dispatch.appID, activityID: $0.dispatch.activityID), $0) },
                uniquingKeysWith: { first, _ in first })
            for row in rows {
                guard let count = byActivity[ActivityKey(appID: try row.require("app_id"), activityID: try row.require("activity_id"))]
                else { continue }
                let position: Int = try row.require("standing")
                // The hour's count after this update is 1: this was its first lowering.
                let loweredInHour: Int = try row.require("lowered")
                let first = count.lowers(at: position) && loweredInHour == 1
                let standing = PriorityStanding(
                    budget: count.budget, position: position, keepsPriority: count.keepsPriority, firstLowered: first)
                standings[count.dispatch.id] = standing
                if first { lowered[count.dispatch.appID, default: []].append(standing.loweredEntry(for: count.dispatch)) }
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
