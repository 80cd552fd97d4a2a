import APNsCore

extension APNsSendResult {
    /// How the transport's outcome reads as a send result: an answer with its `apns-id`,
    /// `apns-request-id` and error body, or no answer.
    init(_ outcome: Result<HTTP2Response, HTTP2TransportError>) {
        switch outcome {
        case .success(let response):
            self = .answered(APNsResponse(response))
        case .failure(let error):
            self = .unreachable(error)
        }
    }
}
