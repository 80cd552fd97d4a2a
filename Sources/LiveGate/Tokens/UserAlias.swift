/// A Braze user alias: a name under a label, for users known before (or without) an external id.
public struct UserAlias: Sendable, Hashable {
    public let label: String
    public let name: String

    public init(label: String, name: String) {
        self.label = label
        self.name = name
    }
}
