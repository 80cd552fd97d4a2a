import APNsCore

extension APNsSendResult {
    /// How the transport's outcome reads as a send result: an answer with its `apns-id`,
    /// `apns-request-id` and error body (a 200 even if the stream broke after its headers), or no answer.
    init(_ outcome: Result<HTTP2Response, HTTP2TransportError>) {
        switch outcome {
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
}
