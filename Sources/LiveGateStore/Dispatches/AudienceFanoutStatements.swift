import APNsCore
import Foundation
import LiveGateDomain
import PostgresClient

/// The SQL of a start to an audience: pages of the app's push-to-start tokens of the type, in id order,
/// whose users match the audience (`AudienceSQL`: index probes of each candidate's attributes), and the
/// devices reached recorded as the start's targets. The statements are built per audience, so they are
/// planned for its filters and values.
enum AudienceFanoutStatements {
    private static func targets(
        of claimed: ClaimedDispatch, audience: Audience, after cursor: Int64, limit: Int?
    )
        -> (sql: String, parameters: [(any PostgresBindable)?])
    {
        let dispatch = claimed.dispatch
        var parameters: [(any PostgresBindable)?] = [dispatch.appID, dispatch.audience?.attributesType ?? "", cursor]
        if let limit { parameters.append(limit) }
        var condition = AudienceSQL(userColumn: "t.user_id", parameters: parameters)
        let matches = condition.condition(audience)
        let sql = """
            FROM push_to_start_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.app_id = $1 AND t.attributes_type = $2 AND t.id > $3 AND \(matches)
            """
        return (sql, condition.parameters)
    }

    /// For the rest of the caller's transaction, a page is planned as the index probes it is meant to be:
    /// nested loops, no hash or merge joins, no parallel workers. The planner reads an audience's filters
    /// as independent (a name, a kind and a value of one attribute), so it expects few candidates to
    /// match. For a page in the last fifth of the tokens' ids, where it also expects few candidates left,
    /// it hashed the matching attributes of every user instead: 50 to 240 ms a page against 6 ms, on 29
    /// of the 201 pages of a 40% audience. And a page planned for few matches went parallel: three times
    /// the serial plan's time, with the two workers taking the cores delivery runs on. Probing costs a
    /// fan-out one probe of each token's user, wherever the matches are; a hash per page costs the whole
    /// audience per page.
    static func probePlans(on connection: PostgresConnection) throws {
        try connection.query(
            """
            SELECT set_config('max_parallel_workers_per_gather', '0', true), set_config('enable_hashjoin', 'off', true),
                   set_config('enable_mergejoin', 'off', true)
            """)
    }

    static func page(
        _ claimed: ClaimedDispatch, audience: Audience, after cursor: Int64, limit: Int, on connection: PostgresConnection
    ) throws -> [FanoutTarget] {
        let targets = targets(of: claimed, audience: audience, after: cursor, limit: limit)
        return try FanoutStatements.targets(
            from: connection.query("SELECT t.id, t.push_token, u.external_id \(targets.sql) ORDER BY t.id LIMIT $4", targets.parameters))
    }

    static func count(_ claimed: ClaimedDispatch, audience: Audience, on connection: PostgresConnection) throws -> Int {
        let targets = targets(of: claimed, audience: audience, after: claimed.fanoutCursor, limit: nil)
        return try connection.query("SELECT count(*)::int AS n \(targets.sql)", targets.parameters).first?.require("n") ?? 0
    }

    /// Each device a page reached becomes a target of the start, with APNs's answer, from its token row
    /// (the answers' cursors are `push_to_start_tokens` ids). A device whose update token for the
    /// activity arrived since the start was accepted is confirmed at once: its registration came before
    /// this row could be confirmed by it.
    static func recordAnswers(_ answers: [DeviceAnswer], of dispatch: Dispatch, on connection: PostgresConnection) throws {
        guard !answers.isEmpty else { return }
        try connection.query(
            """
            INSERT INTO dispatch_targets AS d (dispatch_id, push_token, user_id, device_id, apns_status, answered_at, confirmed_at)
            SELECT $1, p.push_token, p.user_id, p.device_id, a.status, now(),
                   CASE WHEN EXISTS (
                       SELECT 1 FROM activity_tokens k
                       WHERE k.app_id = $3 AND k.activity_id = $4 AND k.device_id = p.device_id
                         AND k.updated_at >= (SELECT created_at FROM dispatches WHERE id = $1)) THEN now() END
            FROM unnest($2::text[]::bigint[], $5::text[]::smallint[]) AS a(id, status)
            JOIN push_to_start_tokens p ON p.id = a.id
            ON CONFLICT (dispatch_id, push_token) DO UPDATE SET apns_status = excluded.apns_status, answered_at = excluded.answered_at
            """,
            [
                dispatch.id, answers.map { String($0.cursor) }, dispatch.appID, dispatch.activityID,
                answers.map { String($0.status) },
            ])
    }
}
