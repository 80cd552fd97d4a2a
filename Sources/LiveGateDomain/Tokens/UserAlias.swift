/// A Braze user alias: a name under a label, for users known before (or without) an external id.
package struct UserAlias: Sendable, Hashable {
    package let label: String
    package let name: String

    package init(label: String, name: String) {
        self.label = label
        self.name = name
    }
}
