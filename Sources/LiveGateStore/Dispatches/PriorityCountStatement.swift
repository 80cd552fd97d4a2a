import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Counts a batch's budgeted updates against their apps' priority budgets in one round trip
/// (`livegate_count_priority`, migration 022: each activity's hour row locked in turn, so gateways
/// delivering one activity share one count), and logs each first lowering of an activity's hour in the
/// same transaction. Only batches with a budgeted update run it: apps without a budget pay nothing.
enum PriorityCountStatement {
    static let statement = PostgresStatement(
        name: "livegate_count_priority",
        sql: """
            SELECT dispatch_id, standing, keeps_high, first_lowered
            FROM livegate_count_priority($1::text[]::uuid[], $2::text[]::int[], $3::text[]::int[],
                                         $4::text[]::boolean[], $5::text[]::boolean[])
            """)

    static func count(_ counts: [PriorityCount], on connection: PostgresConnection) throws -> [UUID: PriorityStanding] {
        guard !counts.isEmpty else { return [:] }
        let rows = try connection.query(
            statement,
            [
                counts.map(\.dispatch.id.lowercasedText), counts.map { String($0.budget.perHour) },
                // Without a frequent budget, devices that allow frequent updates have the standard one.
                counts.map { String($0.budget.frequentPerHour ?? $0.budget.perHour) },
                counts.map { $0.toStandardDevices ? "t" : "f" }, counts.map { $0.toFrequentDevices ? "t" : "f" },
            ])
        let byID = Dictionary(counts.map { ($0.dispatch.id, $0) }, uniquingKeysWith: { first, _ in first })
        var standings: [UUID: PriorityStanding] = [:]
        var lowered: [UUID: [(PriorityStanding, Dispatch)]] = [:]
        for row in rows {
            let id: UUID = try row.require("dispatch_id")
            guard let count = byID[id] else { continue }
            let standing = PriorityStanding(
                budget: count.budget, position: try row.require("standing"), keepsPriority: try row.require("keeps_high"),
                firstLowered: try row.require("first_lowered"))
            standings[id] = standing
            if standing.firstLowered { lowered[count.dispatch.appID, default: []].append((standing, count.dispatch)) }
        }
        for (appID, ofApp) in lowered {
            try ActivityLogStatement.insert(
                ofApp.map { $0.0.loweredEntry(for: $0.1) }, workspaceID: ofApp[0].1.workspaceID, appID: appID, on: connection)
        }
        return standings
    }
}
