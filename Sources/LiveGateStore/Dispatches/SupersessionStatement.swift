import Foundation
import LiveGateDomain
import PostgresClient
import UUIDText

/// Newest state first: a newer update or end makes the unsent pushes of an older unfinished
/// dispatch pointless when it covers that dispatch's audience. Such a dispatch still waiting (`pending`)
/// ends as `superseded` at once; one being delivered gets `superseded_by`, and its worker stops at its
/// next batch.
///
/// Covering: same app and activity; the newer one is for the whole tag, or narrowed to the same
/// `external_id`; an `end` is never superseded by an `update`; a `start` neither supersedes nor is
/// superseded. Supersession is transitive, so the newest covering dispatch is the one recorded.
enum SupersessionStatement {
    /// Which older dispatches of the same activity a newer one `n` covers: `newer` filters the newer
    /// rows, `older` the candidates `older` for each.
    struct Covering {
        var newer: String
        var older: String

        /// Updates and ends, by the rule above.
        static let updatesAndEnds = Covering(
            newer: "n.event <> 'start'",
            older: """
                older.event <> 'start' AND (n.event = 'end' OR older.event = 'update')
                                  AND (coalesce(n.external_id, '') = '' OR older.external_id = n.external_id)
                """)
    }

    /// An `UPDATE … RETURNING` (`id`, `superseded_by`, and what a `dispatch.superseded` event of the row
    /// reads: `SupersededEvents`) marking what the rows of `newer` (a CTE or subquery
    /// with `id, app_id, activity_id`, and the columns `covering` reads: for updates and ends `event` and
    /// `external_id`, `''` or NULL for the whole tag) supersede. `olderCondition` says which candidates
    /// `older` are older than `n`; `newest` orders the newer rows newest first, so each older dispatch
    /// records the newest one covering it.
    ///
    /// The older dispatches are looked up per newer row, by activity (LATERAL, and OFFSET 0 so that the
    /// planner cannot flatten it into a plain join): the statements are prepared, and a plan left free
    /// to join the other way round (every unfinished dispatch, then the
    /// newer rows for each) was once chosen from a count of 15 unfinished dispatches and ran for
    /// seconds against 5,000.
    static func supersede(
        olderThanRowsOf newer: String, newest: String, olderCondition: String, covering: Covering = .updatesAndEnds
    ) -> String {
        """
        UPDATE dispatches o
            SET superseded_by = s.newer_id,
                status = CASE WHEN o.status = 'pending' THEN 'superseded' ELSE o.status END,
                completed_at = CASE WHEN o.status = 'pending' THEN now() ELSE o.completed_at END
            FROM (\(superseded(olderThanRowsOf: newer, newest: newest, olderCondition: olderCondition, covering: covering))
            ) s
            WHERE o.id = s.id AND o.superseded_by IS NULL AND o.status IN ('pending', 'delivering')
            RETURNING o.id, o.superseded_by, o.status, o.workspace_id, o.app_id, o.activity_id, o.external_id, o.event,
                      o.sent_count, o.failed_count, o.removed_count
        """
    }

    /// The `SELECT id, newer_id` of what `supersede(olderThanRowsOf:…)` marks, sorted by id.
    private static func superseded(
        olderThanRowsOf newer: String, newest: String, olderCondition: String, covering: Covering
    ) -> String {
        """
                SELECT DISTINCT ON (older.id) older.id, n.id AS newer_id
                FROM \(newer) n
                CROSS JOIN LATERAL (
                    SELECT * FROM dispatches older
                    WHERE older.app_id = n.app_id AND older.activity_id = n.activity_id
                      AND older.completed_at IS NULL AND older.superseded_by IS NULL
                      AND older.cancel_requested_at IS NULL AND older.id <> n.id
                      AND \(covering.older)
                      AND \(olderCondition)
                    OFFSET 0) older
                WHERE \(covering.newer)
                ORDER BY older.id, \(newest)
        """
    }

    /// The dispatches that take effect now (just claimed: sent now, or a scheduled one now due) supersede
    /// what they cover among the dispatches that took effect before them: by send time, then by
    /// acceptance order. Catches what the commit could not: a scheduled dispatch becoming due, and
    /// dispatches committed at the same moment by different statements or gateways. The dispatches of
    /// the same activities being delivered count as newer too: a dispatch accepted first but committed
    /// after a newer one was claimed (two group commits under way at once) is claimed after it, and
    /// must not bring the older state back. (One whose newer dispatch is already done is not caught: no
    /// index finds an activity's finished dispatches, and one would cost every accepted message; the
    /// devices then order the two by their payloads' `timestamp`.)
    static let onClaim = SupersededEvents.Statements(
        name: "livegate_supersede_on_claim",
        update: supersede(olderThanRowsOf: claimedAndDelivering, newest: tookEffectLast, olderCondition: tookEffectBefore))

    /// The dispatches of `$1` (just claimed) and the others of their activities being delivered.
    private static let claimedAndDelivering = """
        (SELECT id, app_id, activity_id, event, external_id, send_at, created_at, sequence
         FROM dispatches WHERE id = ANY($1::uuid[])
         UNION ALL
         SELECT d.id, d.app_id, d.activity_id, d.event, d.external_id, d.send_at, d.created_at, d.sequence
         FROM (SELECT DISTINCT app_id, activity_id FROM dispatches WHERE id = ANY($1::uuid[])) c
         CROSS JOIN LATERAL (
             SELECT * FROM dispatches d
             WHERE d.app_id = c.app_id AND d.activity_id = c.activity_id AND d.completed_at IS NULL
               AND d.status = 'delivering' AND d.id <> ALL($1::uuid[])
             OFFSET 0) d)
        """

    /// Whether `onClaim` would supersede anything: a read, so the common answer (nothing) costs no
    /// commit. Dispatches handed over at their commit ask first (`supersede(byHandedOver:)`).
    static let onClaimFinds = PostgresStatement(
        name: "livegate_supersede_on_claim_finds",
        sql:
            "SELECT 1 FROM (\(superseded(olderThanRowsOf: claimedAndDelivering, newest: tookEffectLast, olderCondition: tookEffectBefore, covering: .updatesAndEnds))) s LIMIT 1"
    )

    /// Newest first by when each takes effect: its send time, then its acceptance order.
    static let tookEffectLast = "coalesce(n.send_at, n.created_at) DESC, n.sequence DESC"
    /// `older` took effect before `n`.
    static let tookEffectBefore = """
        (coalesce(older.send_at, older.created_at), older.sequence)
            < (coalesce(n.send_at, n.created_at), n.sequence)
        """

    /// Runs `onClaim` for `claimed`; returns each dispatch it superseded with the one that did. Those it
    /// ends at once have their `dispatch.superseded` written, for the apps `events` says are subscribed.
    static func supersede(
        byClaimed claimed: [Dispatch], events: (any EventInterest)?, on connection: PostgresConnection
    ) throws -> [UUID: UUID] {
        try run(onClaim, byClaimed: claimed, events: events, on: connection)
    }

    /// `supersede(byClaimed:)` for dispatches handed over at their commit, whose commit already
    /// superseded what it could see: mostly nothing is left, and a read says so without a commit.
    static func supersede(
        byHandedOver handed: [Dispatch], events: (any EventInterest)?, on connection: PostgresConnection
    ) throws -> [UUID: UUID] {
        guard !handed.isEmpty, try connection.query(onClaimFinds, [handed.map(\.id.lowercasedText)]).count > 0 else { return [:] }
        return try supersede(byClaimed: handed, events: events, on: connection)
    }

    /// Runs statements built by `supersede(olderThanRowsOf:…)` whose `$1` is the claimed dispatches: the
    /// one writing events when any of their apps is subscribed, else the plain one.
    static func run(
        _ statements: SupersededEvents.Statements, byClaimed claimed: [Dispatch], events: (any EventInterest)?,
        on connection: PostgresConnection
    ) throws
        -> [UUID: UUID]
    {
        guard !claimed.isEmpty else { return [:] }
        let ids = claimed.map(\.id.lowercasedText)
        let apps = SupersededEvents.apps(of: claimed, events: events)
        let rows =
            apps.isEmpty
            ? try connection.query(statements.plain, [ids])
            : try connection.query(statements.withEvents, [ids, apps.map(\.lowercasedText)])
        var superseded: [UUID: UUID] = [:]
        for row in rows {
            superseded[try row.require("id")] = try row.require("superseded_by")
        }
        return superseded
    }
}
