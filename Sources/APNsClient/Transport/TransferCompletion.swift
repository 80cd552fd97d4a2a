/// Whom a finished transfer tells: one caller waiting for one answer, or its place in a batch whose
/// caller waits for all of them at once (one wake-up for many pushes).
enum TransferCompletion {
    case single(CheckedContinuation<HTTP2Response, any Error>)
    case batch(TransferBatch, index: Int)

    /// Takes the result: an answer is moved to its caller, not copied (a copy retains its headers and
    /// body on the lane's thread, and the caller's thread releases them again).
    func finish(_ result: consuming Result<HTTP2Response, HTTP2TransportError>) {
        switch self {
        case .single(let continuation): continuation.resume(with: result.mapError { $0 as any Error })
        case .batch(let batch, let index): batch.record(consume result, at: index)
        }
    }
}

/// The answers of one `CurlHTTP2Client.send(batch:)`, collected on the thread of the one lane the batch
/// went to (and only there: hence `@unchecked Sendable`), handed to the caller when the last one is in.
///
/// The batch also keeps its transfers, and hands them back with the answers, so that they are freed on
/// the caller's thread rather than the lane's: a transfer holds its request's body and shared header
/// lines, which the caller's thread retains for the next requests meanwhile, and freeing them on the
/// lane would make both threads contend for the same reference counts on every push.
final class TransferBatch: @unchecked Sendable {
    struct Answers {
        var results: [Result<HTTP2Response, HTTP2TransportError>]
        /// The batch's transfers, ended: held only to be freed by the caller.
        var transfers: [CurlTransfer]
    }

    /// Each place holds a stand-in until its answer is recorded: handed over as it is once all are in,
    /// rather than copied out of optionals.
    private var results: [Result<HTTP2Response, HTTP2TransportError>]
    private var remaining: Int
    private var transfers: [CurlTransfer] = []
    private let continuation: CheckedContinuation<Answers, Never>

    init(count: Int, continuation: CheckedContinuation<Answers, Never>) {
        results = Array(repeating: .failure(HTTP2TransportError(.shutDown, "no answer recorded")), count: count)
        remaining = count
        self.continuation = continuation
    }

    /// Keeps the batch's transfers until the last answer is in; called once, before they are handed
    /// to the lane. (Each transfer holds the batch too: the cycle ends when the answers go out.)
    func keep(_ transfers: [CurlTransfer]) {
        self.transfers = transfers
    }

    func record(_ result: consuming Result<HTTP2Response, HTTP2TransportError>, at index: Int) {
        results[index] = consume result
        remaining -= 1
        if remaining == 0 {
            let answers = Answers(results: results, transfers: transfers)
            results = []
            transfers = []
            continuation.resume(returning: answers)
        }
    }
}
