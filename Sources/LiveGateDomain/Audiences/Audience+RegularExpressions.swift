extension Audience {
    /// The regular expressions it uses: checked by PostgreSQL, whose dialect evaluates them, before a
    /// start or segment is accepted.
    package var regularExpressions: [String] {
        switch self {
        case .all(let parts), .any(let parts): return parts.flatMap(\.regularExpressions)
        case .attribute(let filter):
            switch filter.comparison {
            case .matchesRegex(let pattern), .doesNotMatchRegex(let pattern): return [pattern]
            default: return []
            }
        }
    }
}
