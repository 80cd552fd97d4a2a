import Foundation
import UUIDText

/// A statement parameter as it goes to `PQexecParams`.
public enum PostgresParameter: Sendable, Equatable {
    /// Text format with type left for the server to infer from the statement.
    case text(String)
    /// Binary `bytea`: raw bytes, sent without escaping.
    case bytes([UInt8])
}

/// A Swift value that can be bound to a `$n` placeholder.
public protocol PostgresBindable: Sendable {
    var postgresParameter: PostgresParameter { get }
}

extension String: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(self) }
}

extension Int: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
}

extension Int64: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
}

extension Int32: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
}

extension Double: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
}

extension Bool: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(self ? "true" : "false") }
}

extension UUID: PostgresBindable {
    public var postgresParameter: PostgresParameter { .text(lowercasedText) }
}

extension Date: PostgresBindable {
    /// A `timestamptz` literal in UTC with microseconds.
    public var postgresParameter: PostgresParameter {
        .text(PostgresTimestamp.format(self))
    }
}

extension Data: PostgresBindable {
    public var postgresParameter: PostgresParameter { .bytes([UInt8](self)) }
}

extension Array: PostgresBindable where Element == String {
    /// A text array literal, `{"a","b"}`, every element quoted and escaped.
    public var postgresParameter: PostgresParameter {
        // Byte-wise: in UTF-8 no byte of a multi-byte character can be mistaken for `"` or `\`.
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(2 + reduce(0) { $0 + $1.utf8.count + 3 })
        for (index, element) in enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return .text(String(decoding: literal, as: UTF8.self))
    }
}
