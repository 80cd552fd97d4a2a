/// Commits accepted dispatches. Each call returns only once its dispatch is durable.
///
/// `respond` turns what was resolved into the API's answer; with an idempotency claim that answer is
/// stored in the same transaction as the dispatch, so a retry can never see one without the other.
package protocol DispatchStore: Sendable {
    func commitUpdate(
        _ dispatch: Dispatch, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (UpdateResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome

    func commitStart(
        _ dispatch: Dispatch, targeting: StartTargeting, idempotency: IdempotencyClaim?,
        respond: @escaping @Sendable (StartResolution) -> StoredResponse
    ) async throws -> IdempotentOutcome
}
