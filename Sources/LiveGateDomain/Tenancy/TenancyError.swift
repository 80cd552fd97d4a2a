/// A tenancy operation that could not be done, with a message for a person.
package struct TenancyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over them with a default.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case workspaceNotFound
            case appIdentifierTaken
            case invalidValue
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        package static let workspaceNotFound = Code(.workspaceNotFound)
        package static let appIdentifierTaken = Code(.appIdentifierTaken)
        package static let invalidValue = Code(.invalidValue)

        package var description: String { base.rawValue }
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
