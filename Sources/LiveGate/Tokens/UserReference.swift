/// How an API call or the SDK names a user: by external id, or by a Braze user alias.
public enum UserReference: Sendable, Hashable, CustomStringConvertible {
    case externalID(String)
    case alias(label: String, name: String)

    /// For error messages a person reads: which user this was.
    public var description: String {
        switch self {
        case .externalID(let id): "external_id '\(id)'"
        case .alias(let label, let name): "user alias '\(name)' (label '\(label)')"
        }
    }
}
