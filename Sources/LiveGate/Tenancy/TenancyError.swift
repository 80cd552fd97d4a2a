/// A tenancy operation that could not be done, with a message for a person.
public struct TenancyError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        let name: String
        public static let workspaceNotFound = Code(name: "workspaceNotFound")
        public static let appIdentifierTaken = Code(name: "appIdentifierTaken")
        public static let invalidValue = Code(name: "invalidValue")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
