/// Whom a finished transfer tells: one caller waiting for one answer, or its place in a batch whose
/// caller waits for all of them at once (one wake-up for many pushes).
enum TransferCompletion {
    case single(CheckedContinuation<HTTP2Response, any Error>)
    case batch(TransferBatch, index: Int)

    func finish(_ result: Result<HTTP2Response, HTTP2TransportError>) {
        switch self {
        case .single(let continuation): continuation.resume(with: result.mapError { $0 as any Error })
        case .batch(let batch, let index): batch.record(result, at: index)
        }
    }
}

/// The answers of one `CurlHTTP2Client.send(batch:)`, collected on the thread of the one lane the batch
/// went to (and only there: hence `@unchecked Sendable`), handed to the caller when the last one is in.
final class TransferBatch: @unchecked Sendable {
    /// Each place holds a stand-in until its answer is recorded: handed over as it is once all are in,
    /// rather than copied out of optionals.
    private var results: [Result<HTTP2Response, HTTP2TransportError>]
    private var remaining: Int
    private let continuation: CheckedContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>

    init(count: Int, continuation: CheckedContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>) {
        results = Array(repeating: .failure(HTTP2TransportError(.shutDown, "no answer recorded")), count: count)
        remaining = count
        self.continuation = continuation
    }

    func record(_ result: Result<HTTP2Response, HTTP2TransportError>, at index: Int) {
        results[index] = result
        remaining -= 1
        if remaining == 0 {
            let all = results
            results = []
            continuation.resume(returning: all)
        }
    }
}
