/// A tenancy operation that could not be done, with a message for a person.
public struct TenancyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case workspaceNotFound
            case appIdentifierTaken
            case invalidValue
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        public static let workspaceNotFound = Code(.workspaceNotFound)
        public static let appIdentifierTaken = Code(.appIdentifierTaken)
        public static let invalidValue = Code(.invalidValue)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
