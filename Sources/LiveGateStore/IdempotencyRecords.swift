import Foundation
import LiveGateDomain
import PostgresClient

/// `Idempotency-Key` bookkeeping inside the caller's transaction.
///
/// The key's row is inserted first: a concurrent request with the same key then waits on the unique
/// index until this transaction ends, and sees the stored answer instead of committing a second
/// dispatch. Keys older than the retention period are taken over as new.
enum IdempotencyRecords {
    static func run(
        _ claim: IdempotencyClaim, workspaceID: UUID, on connection: PostgresConnection,
        _ write: () throws -> StoredResponse
    ) throws -> IdempotentOutcome {
        let retentionSeconds = IdempotencyClaim.retention.inSeconds
        let claimed = try connection.query(
            """
            INSERT INTO idempotency_keys AS k (workspace_id, idempotency_key, request_hash) VALUES ($1, $2, $3)
            ON CONFLICT (workspace_id, idempotency_key) DO UPDATE
                SET request_hash = EXCLUDED.request_hash, created_at = now(),
                    response_status = NULL, response_body = NULL
                WHERE k.created_at < now() - make_interval(secs => $4)
            """,
            [workspaceID, claim.key, Data(claim.requestHash), retentionSeconds])
        if claimed.affectedRowCount == 0 {
            let rows = try connection.query(
                """
                SELECT request_hash = $3 AS same_request, response_status, response_body FROM idempotency_keys
                WHERE workspace_id = $1 AND idempotency_key = $2
                """,
                [workspaceID, claim.key, Data(claim.requestHash)])
            guard let row = rows.first else {
                throw PostgresError(code: .statementFailed, message: "idempotency key vanished while being read")
            }
            guard try row.require("same_request", as: Bool.self) else { return .keyReused }
            return .replayed(
                StoredResponse(status: try row.require("response_status"), body: try row.require("response_body")))
        }
        let response = try write()
        try connection.query(
            """
            UPDATE idempotency_keys SET response_status = $3, response_body = $4
            WHERE workspace_id = $1 AND idempotency_key = $2
            """,
            [workspaceID, claim.key, response.status, response.body])
        return .committed(response)
    }
}
