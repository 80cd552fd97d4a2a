/// A JSON value exactly as a client sent it: numbers keep their original text and objects keep their
/// members in order, duplicates included, so what the gateway forwards to APNs is what it was given.
///
/// `==` is exact (same lexemes, same member order); use ``isEquivalent(to:)`` to compare meaning.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as its original lexeme ("0.941", "1e3", "100"), never reformatted. A lexeme built by
    /// hand must be a valid JSON number: the serializer writes it verbatim.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}
