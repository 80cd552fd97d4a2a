import Foundation
import LiveGateDomain
import PostgresClient

/// Custom attributes in `user_attributes`: each update's sets in one statement (parallel arrays), its
/// removals in one, each array change in one; all updates of a call in one transaction.
package struct PostgresUserAttributes: UserAttributesStore {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    package func apply(_ updates: [UserAttributesUpdate], workspaceID: UUID) async throws -> Int {
        try await pool.transaction { connection in
            var applied = 0
            for update in updates {
                guard let userID = try Self.user(update, workspaceID: workspaceID, on: connection) else { continue }
                try Self.apply(update.changes, userID: userID, on: connection)
                applied += 1
            }
            return applied
        }
    }

    static func user(_ update: UserAttributesUpdate, workspaceID: UUID, on connection: PostgresConnection) throws -> Int64? {
        let (externalID, alias): (String?, UserAlias?) =
            switch update.user {
            case .externalID(let id): (id, nil)
            case .alias(let alias): (nil, alias)
            }
        guard update.updateExistingOnly else {
            return try UserResolution.findOrCreate(externalID: externalID, alias: alias, workspaceID: workspaceID, on: connection)
        }
        if let alias { return try UserResolution.aliasedUser(alias, workspaceID: workspaceID, on: connection) }
        return try connection.query(
            "SELECT id FROM users WHERE workspace_id = $1 AND external_id = $2", [workspaceID, externalID]
        ).first?.require("id")
    }

    static func apply(_ changes: [(name: String, change: CustomAttributeChange)], userID: Int64, on connection: PostgresConnection) throws {
        var sets = AttributeRows()
        var removed: [String] = []
        for (name, change) in changes {
            switch change {
            case .remove: removed.append(name)
            case .arrayChange(let add, let remove): try changeArray(name, add: add, remove: remove, userID: userID, on: connection)
            default: sets.append(name, change)
            }
        }
        if !removed.isEmpty {
            try connection.query("DELETE FROM user_attributes WHERE user_id = $1 AND name = ANY($2::text[])", [userID, removed])
        }
        guard !sets.names.isEmpty else { return }
        // Arrays go as JSON text (a text[] of text[] cannot be ragged); '' stands for NULL elsewhere.
        try connection.query(
            """
            INSERT INTO user_attributes AS a (user_id, name, kind, string_value, number_value, boolean_value, time_value, array_value)
            SELECT $1, s.name, s.kind, nullif(s.string_value, ''), nullif(s.number_value, '')::float8,
                   nullif(s.boolean_value, '')::boolean, nullif(s.time_value, '')::timestamptz,
                   CASE WHEN s.kind = 'array' THEN ARRAY(SELECT json_array_elements_text(s.array_value::json)) END
            FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                 AS s(name, kind, string_value, number_value, boolean_value, time_value, array_value)
            ON CONFLICT (user_id, name) DO UPDATE
            SET kind = EXCLUDED.kind, string_value = EXCLUDED.string_value, number_value = EXCLUDED.number_value,
                boolean_value = EXCLUDED.boolean_value, time_value = EXCLUDED.time_value, array_value = EXCLUDED.array_value,
                updated_at = now()
            """,
            [userID, sets.names, sets.kinds, sets.strings, sets.numbers, sets.booleans, sets.times, sets.arrays])
    }

    /// Braze's `add` and `remove` on an array attribute: added values once each, at the end; an attribute
    /// of another type becomes an array.
    static func changeArray(
        _ name: String, add: [String], remove: [String], userID: Int64, on connection: PostgresConnection
    )
        throws
    {
        try connection.query(
            """
            INSERT INTO user_attributes AS a (user_id, name, kind, array_value)
            VALUES ($1, $2, 'array', ARRAY(
                SELECT v FROM (
                    SELECT DISTINCT ON (v) v, i FROM unnest($3::text[]) WITH ORDINALITY AS t(v, i)
                    WHERE v <> ALL($4::text[]) ORDER BY v, i
                ) kept ORDER BY i))
            ON CONFLICT (user_id, name) DO UPDATE
            SET kind = 'array', string_value = NULL, number_value = NULL, boolean_value = NULL, time_value = NULL,
                array_value = ARRAY(
                    SELECT v FROM (
                        SELECT DISTINCT ON (v) v, i FROM unnest(
                            (CASE WHEN a.kind = 'array' THEN coalesce(a.array_value, '{}') ELSE '{}' END) || $3::text[]
                        ) WITH ORDINALITY AS t(v, i)
                        WHERE v <> ALL($4::text[])
                        ORDER BY v, i
                    ) kept ORDER BY i),
                updated_at = now()
            """,
            [userID, name, add, remove])
    }
}

/// Parallel arrays of the attributes a statement sets, one row per attribute.
struct AttributeRows {
    var names: [String] = []
    var kinds: [String] = []
    var strings: [String] = []
    var numbers: [String] = []
    var booleans: [String] = []
    var times: [String] = []
    var arrays: [String] = []

    mutating func append(_ name: String, _ change: CustomAttributeChange) {
        var (kind, string, number, boolean, time, array) = ("", "", "", "", "", "")
        switch change {
        case .string(let text): (kind, string) = ("string", text)
        case .number(let value): (kind, number) = ("number", String(value))
        case .boolean(let value): (kind, boolean) = ("boolean", String(value))
        case .time(let date, let text):
            // ISO 8601's year 0, which PostgreSQL lacks, is written as year 1 (`PostgresTimestamp`).
            (kind, string, time) = ("time", text, PostgresTimestamp.format(date))
        case .array(let values):
            kind = "array"
            array = String(decoding: (try? JSONSerialization.data(withJSONObject: values)) ?? Data("[]".utf8), as: UTF8.self)
        case .arrayChange, .remove: return
        }
        names.append(name)
        kinds.append(kind)
        strings.append(string)
        numbers.append(number)
        booleans.append(boolean)
        times.append(time)
        arrays.append(array)
    }
}
