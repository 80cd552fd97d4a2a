/// A delivery worker's proof of life that other workers can test (a dead gateway's work is
/// taken over in seconds). While it holds, the dispatches claimed under its number are the worker's own;
/// once it is gone (the process died, or the database ended the session) any worker takes them over at
/// once instead of waiting for their lease to run out.
package protocol DeliveryWorkerSession: Sendable {
    /// Takes the proof, opening what it needs: the number claims record, or nil when it cannot be taken
    /// right now (try again shortly).
    func take() async throws -> Int32?
    /// Waits up to `timeout` while the proof holds; false once it is gone.
    func waitWhileHeld(upTo timeout: Duration) async -> Bool
    /// Gives the proof up, once the worker has handed back what it held.
    func close() async
}
