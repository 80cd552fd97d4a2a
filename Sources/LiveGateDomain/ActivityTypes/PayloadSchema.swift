import APNsCore

/// A SCHEMA of SPEC §13: the shape of an app's `ContentState` (or attributes) for one ActivityAttributes
/// type, compiled once into a tree of nodes so that checking the updates sent with it, each one, costs
/// microseconds. ``check(_:at:)`` answers what the app's `JSONDecoder` would: APNs accepts a content-state
/// the app cannot decode, and the phone then silently shows nothing.
///
/// The subset: `type` (object, array, string, integer, number, boolean, null, or a list of them),
/// `properties`, `required` (a property not listed is a Swift Optional), `items`, `enum`,
/// `additionalProperties` (false, or a schema for a `[String: T]`) and `"format": "apple-date"` on a number
/// (a Swift `Date`). `$schema`, `$id`, `title`, `description`, `examples` and `default` are accepted and
/// ignored; any other keyword is refused.
package final class PayloadSchema: Sendable {
    /// How deeply schemas may nest, the whole schema counting as one: it bounds the recursion of every
    /// check. Codable types deeper than this are not sent as Live Activity state.
    package static let maximumDepth = 32
    /// The most mismatches one check reports.
    package static let mismatchLimit = 50

    /// The schema as it was given, for GET to return.
    package let json: JSONValue
    private let compiled: FlatPayloadSchema

    /// Compiles `json`. `path` names where the schema sits in the request for error messages, e.g.
    /// "content_state".
    package init(parsing json: JSONValue, at path: String) throws(PayloadSchemaError) {
        self.json = json
        self.compiled = FlatPayloadSchema(try PayloadSchemaNode.parse(json, at: path, depth: 1))
    }

    /// Checks `value` (found at `path`, e.g. "$.content_state") as Foundation's `JSONDecoder` with default
    /// strategies would decode it into the type, and converts its `apple-date` text.
    package func check(_ value: JSONValue, at path: String) -> PayloadCheck {
        compiled.check(value, at: path)
    }
}
