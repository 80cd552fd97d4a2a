/// Why a SCHEMA (SPEC §13) was refused, and where: `path` names the keyword or entry at fault, starting
/// from where the schema sits in the request (`content_state.properties.home.type`).
package struct PayloadSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake. New codes may be added, so switch over them with a default.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case notASchema
            case invalidType
            case invalidProperties
            case invalidRequired
            case invalidEnum
            case invalidAdditionalProperties
            case invalidFormat
            case unknownKeyword
            case repeatedKeyword
            case inapplicableKeyword
            case tooDeep
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// A schema (the whole, a property's, `items`) that is not a JSON object.
        package static let notASchema = Code(.notASchema)
        /// `type` not a known type name or a non-empty list of them.
        package static let invalidType = Code(.invalidType)
        /// `properties` not an object, or a property given twice.
        package static let invalidProperties = Code(.invalidProperties)
        /// `required` not an array of strings, or naming a property `properties` lacks.
        package static let invalidRequired = Code(.invalidRequired)
        /// `enum` not a non-empty array, or listing a value its own `type` refuses.
        package static let invalidEnum = Code(.invalidEnum)
        /// `additionalProperties` neither `true`, `false` nor a schema.
        package static let invalidAdditionalProperties = Code(.invalidAdditionalProperties)
        /// A `format` other than `apple-date`, or `apple-date` on anything but a number.
        package static let invalidFormat = Code(.invalidFormat)
        /// A keyword outside the subset and its annotations: the gateway would not enforce it.
        package static let unknownKeyword = Code(.unknownKeyword)
        /// A keyword given twice in one schema: readers disagree on which one counts.
        package static let repeatedKeyword = Code(.repeatedKeyword)
        /// An object keyword on a type without `object`, or `items` on one without `array`: it could never apply.
        package static let inapplicableKeyword = Code(.inapplicableKeyword)
        /// Schemas nested deeper than ``PayloadSchema/maximumDepth``.
        package static let tooDeep = Code(.tooDeep)

        package var description: String { base.rawValue }
    }

    package let code: Code
    package let path: String
    package let message: String

    package init(_ code: Code, at path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `content_state.properties.home.type: unknown type "int"`.
    package var description: String { "\(path): \(message)" }
}
