import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Checks each finished push-to-start once, `after` its last answer: the devices APNs took it for that
/// never confirmed it (no update token under its activity id, no `active` report) get one activity-log
/// entry per start, under the log's per-type limits. "Shown": reported `active` or `stale`.
package struct UnconfirmedStarts: Sendable {
    /// Starts checked per statement; a pass goes on while a statement fills up.
    static let batch = 200

    let pool: PostgresConnectionPool
    let after: Duration
    /// Who subscribes to `start.unconfirmed`: one event per device, written with the check.
    let events: (any EventInterest)?

    package init(pool: PostgresConnectionPool, after: Duration, events: (any EventInterest)? = nil) {
        self.pool = pool
        self.after = after
        self.events = events
    }

    /// One pass: returns how many starts were checked and how many devices never confirmed.
    @discardableResult
    package func check() async throws -> (starts: Int, unconfirmedDevices: Int) {
        var total = (starts: 0, unconfirmedDevices: 0)
        let events = events
        while true {
            let checked = try await pool.transaction { connection in
                let rows = try connection.query(StartConfirmationStatements.checkFinished, [after.inSeconds, Self.batch])
                let starts = try rows.map { row in
                    (
                        id: try row.require("id", as: UUID.self), workspaceID: try row.require("workspace_id", as: UUID.self),
                        appID: try row.require("app_id", as: UUID.self), activityID: try row.require("activity_id", as: String.self),
                        unconfirmed: try row.require("unconfirmed", as: Int.self)
                    )
                }
                for (appID, ofApp) in Dictionary(grouping: starts.filter { $0.unconfirmed > 0 }, by: \.appID) {
                    let entries = ofApp.map {
                        Self.entry(dispatchID: $0.id, activityID: $0.activityID, devices: $0.unconfirmed, after: after)
                    }
                    try ActivityLogStatement.insert(entries, workspaceID: ofApp[0].workspaceID, appID: appID, on: connection)
                }
                let subscribed = starts.filter {
                    $0.unconfirmed > 0 && events?.wants(.startUnconfirmed, workspaceID: $0.workspaceID, appID: $0.appID) == true
                }
                if !subscribed.isEmpty {
                    try connection.query(StartConfirmationStatements.unconfirmedEvents, [subscribed.map(\.id.lowercasedText)])
                }
                return (starts: starts.count, unconfirmedDevices: starts.reduce(0) { $0 + $1.unconfirmed })
            }
            total.starts += checked.starts
            total.unconfirmedDevices += checked.unconfirmedDevices
            GatewayMetrics.startsUnconfirmed(checked.unconfirmedDevices)
            if checked.starts < Self.batch { return total }
        }
    }

    static func entry(dispatchID: UUID, activityID: String, devices: Int, after: Duration) -> ActivityLogEntry {
        let seconds = after.components.seconds
        return ActivityLogEntry(
            type: .other,
            message:
                "Live Activity start not confirmed on \(devices) device\(devices == 1 ? "" : "s"): APNs accepted the push-to-start, "
                + "but \(seconds) s later no update token had arrived under the activity id and the app had not reported it shown.",
            activityID: activityID, dispatchID: dispatchID)
    }
}
