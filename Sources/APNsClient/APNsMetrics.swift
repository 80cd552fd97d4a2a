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
        for outcome in outcomes {
            switch outcome {
            case .success(let answer):
                statuses[answer.status, default: 0] += 1
                answerDuration.record(duration: answer.answerTime)
            case .failure(let error):
                // An answer cut off after its headers still says what APNs answered.
                statuses[error.partialAnswer?.status ?? -1, default: 0] += 1
            }
        }
        for (status, count) in statuses {
            let label = status < 0 ? "none" : String(status)
            Counter(label: Self.requestsLabel, dimensions: [("kind", kind.rawValue), ("status", label)], factory: factory)
                .increment(by: count)
        }
    }
}
