import Metrics

/// What the sender reports through swift-metrics (nothing, unless the process bootstrapped a backend):
/// each request to APNs by what it is and the status APNs answered (`none`: no answer), and how long
/// APNs took to answer, from the request going out to the last byte of the answer.
public struct APNsMetrics: Sendable {
    public static let requestsLabel = "apns.requests"
    public static let answerDurationLabel = "apns.answer.duration"

    enum Kind: String {
        case device
        case broadcast
    }

    let factory: any MetricsFactory

    init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// A batch's answers: one counter step per status, one timing per answer.
    func record(_ outcomes: [Result<HTTP2Response, HTTP2TransportError>], kind: Kind) {
        // Counted by number, named once per status at the end (-1: no answer): not a string per push.
        var statuses: [Int: Int] = [:]
        let answerDuration = Timer(label: Self.answerDurationLabel, dimensions: [("kind", kind.rawValue)], factory: factory)
        // Read in place: binding each outcome would copy it, retaining its headers and body.
        for index in outcomes.indices {
            statuses[outcomes[index].answeredStatus, default: 0] += 1
            if let answerTime = outcomes[index].answerTime { answerDuration.record(duration: answerTime) }
        }
        for (status, count) in statuses {
            let label = status < 0 ? "none" : String(status)
            Counter(label: Self.requestsLabel, dimensions: [("kind", kind.rawValue), ("status", label)], factory: factory)
                .increment(by: count)
        }
    }
}

extension Result<HTTP2Response, HTTP2TransportError> {
    /// The status APNs answered, also of an answer cut off after its headers; -1 for none.
    fileprivate var answeredStatus: Int {
        switch self {
        case .success(let answer): answer.status
        case .failure(let error): error.partialAnswer?.status ?? -1
        }
    }

    /// How long a whole answer took; nil for none.
    fileprivate var answerTime: Duration? {
        switch self {
        case .success(let answer): answer.answerTime
        case .failure: nil
        }
    }
}
