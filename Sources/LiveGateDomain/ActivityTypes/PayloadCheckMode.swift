/// What a registered type does with a payload it would not decode: refuse it at the API (`enforce`),
/// or accept it and say so in the activity log and a metric (`warn`, to roll a schema out safely).
package struct PayloadCheckMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    package static let enforce = PayloadCheckMode(rawValue: "enforce")
    package static let warn = PayloadCheckMode(rawValue: "warn")

    package static let all: [PayloadCheckMode] = [.enforce, .warn]
}
