import APNsCore

extension APNsSendResult {
    /// How the transport's outcome reads as a send result: an answer with its `apns-id`,
    /// `apns-request-id` and error body (a 200 even if the stream broke after its headers), or no answer.
    init(_ outcome: consuming Result<HTTP2Response, HTTP2TransportError>) {
        switch consume outcome {
        case .success(let response):
            self = .answered(APNsResponse(response))
        case .failure(let error):
            // APNs answers 200 with headers alone: once they came, the push was accepted, whatever broke
            // after. Any other status's reason is in the body that did not all come.
            if error.code == .answerCutOff, let partial = error.partialAnswer, partial.status == 200 {
                self = .answered(APNsResponse(partial))
            } else {
                self = .unreachable(error)
            }
        }
    }

    /// Each outcome as a send result, in order, moved out of `outcomes` rather than copied: a copy
    /// retains each answer's header values and body, and freeing the outcomes releases them again.
    static func results(of outcomes: consuming [Result<HTTP2Response, HTTP2TransportError>]) -> [APNsSendResult] {
        var remaining = consume outcomes
        let count = remaining.count
        // Taken from the end (`popLast` moves) and written in place from the end: no reordering pass.
        return [APNsSendResult](unsafeUninitializedCapacity: count) { results, initialized in
            var index = count
            while let outcome = remaining.popLast() {
                index -= 1
                (results.baseAddress! + index).initialize(to: APNsSendResult(outcome))
            }
            initialized = count
        }
    }
}
