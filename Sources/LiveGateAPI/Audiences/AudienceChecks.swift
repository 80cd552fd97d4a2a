import Foundation
import LiveGateDomain

/// What an audience needs beyond its shape before it is accepted.
enum AudienceChecks {
    /// A 400 naming each regular expression PostgreSQL, which evaluates them, cannot compile.
    static func checkRegularExpressions(of audience: Audience, at path: String, with segments: any SegmentStore) async throws {
        let patterns = audience.regularExpressions
        guard !patterns.isEmpty else { return }
        let invalid = try await segments.invalidRegularExpressions(patterns)
        guard !invalid.isEmpty else { return }
        let problems = ValidationProblems()
        for pattern in invalid {
            problems.add("\(path) has an invalid regular expression '\(pattern.prefix(64))' (PostgreSQL's syntax)")
        }
        try problems.throwIfAny()
    }
}
