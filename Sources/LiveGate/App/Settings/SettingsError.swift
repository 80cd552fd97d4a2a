/// A setting the environment gives that cannot be used: which one, and what it takes.
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
