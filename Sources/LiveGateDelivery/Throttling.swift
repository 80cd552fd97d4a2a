/// What APNs's 429 `TooManyRequests` did to one push (or broadcast): how many such answers it got, and
/// the longest its device (or channel) was backed off for (`TokenBackoff`), including a wait it met
/// before its first try because an earlier push to the device was throttled.
struct Throttling: Sendable, Equatable {
    var answers = 0
    var longestWait: Duration?

    mutating func waited(_ wait: Duration) {
        longestWait = max(longestWait ?? .zero, wait)
    }

    /// Both pushes' throttling, as one: a push sent again (`UnansweredResend`) keeps its first tries'.
    func merged(with other: Throttling) -> Throttling {
        var merged = Throttling(answers: answers + other.answers, longestWait: longestWait)
        if let wait = other.longestWait { merged.waited(wait) }
        return merged
    }
}
