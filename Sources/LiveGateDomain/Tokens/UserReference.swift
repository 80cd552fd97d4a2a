/// How an API call or the SDK names a user: by external id, or by a Braze user alias.
package enum UserReference: Sendable, Hashable, CustomStringConvertible {
    case externalID(String)
    case alias(UserAlias)

    /// For error messages a person reads: which user this was.
    package var description: String {
        switch self {
        case .externalID(let id): "external_id '\(id)'"
        case .alias(let alias): "user alias '\(alias.name)' (label '\(alias.label)')"
        }
    }
}
