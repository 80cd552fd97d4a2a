import Foundation

/// Provider tokens the simulator has checked, by their exact text. A sender uses one token for many
/// pushes (APNs asks for a new one at most every 20 minutes), so verifying its ES256 signature once,
/// not for every push, is what lets the simulator keep up with tens of thousands of pushes a second.
/// Only the signature and claims are remembered: the token's age is checked against the clock each time.
struct ProviderTokenVerdicts {
    /// Distinct tokens remembered at most; beyond it the memory starts again (a test sending many
    /// made-up tokens must not grow the simulator without bound).
    static let capacity = 10_000

    private var verdicts: [String: Result<Int64, PushCheck.TokenProblem>] = [:]

    /// Nil when the `authorization` header holds a valid provider token at `now`; else APNs's reason.
    mutating func problem(with authorization: String?, keys: [String: SimulatorConfiguration.ProviderKey], now: Date) -> String? {
        guard let authorization else { return "MissingProviderToken" }
        let verdict: Result<Int64, PushCheck.TokenProblem>
        if let known = verdicts[authorization] {
            verdict = known
        } else {
            verdict = PushCheck.signedAt(authorization, keys: keys)
            if verdicts.count >= Self.capacity { verdicts.removeAll(keepingCapacity: true) }
            verdicts[authorization] = verdict
        }
        switch verdict {
        case .failure(let problem): return problem.reason
        case .success(let issuedAt): return PushCheck.checkAge(issuedAt: issuedAt, now: now)
        }
    }
}
