import Foundation

/// A Swift type that can be read from a column in libpq's text format.
public protocol PostgresDecodable {
    init?(postgresText: String)
}

extension String: PostgresDecodable {
    public init?(postgresText: String) { self = postgresText }
}

extension Int: PostgresDecodable {
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Int64: PostgresDecodable {
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Int32: PostgresDecodable {
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Double: PostgresDecodable {
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Bool: PostgresDecodable {
    public init?(postgresText: String) {
        switch postgresText {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension UUID: PostgresDecodable {
    public init?(postgresText: String) { self.init(uuidString: postgresText) }
}

extension Date: PostgresDecodable {
    public init?(postgresText: String) {
        guard let date = PostgresTimestamp.parse(postgresText) else { return nil }
        self = date
    }
}

extension Data: PostgresDecodable {
    /// `bytea` in hex output format: `\x0123ab`.
    public init?(postgresText: String) {
        let hex = Array(postgresText.utf8)
        guard hex.count >= 2, hex[0] == UInt8(ascii: "\\"), hex[1] == UInt8(ascii: "x"), hex.count % 2 == 0 else {
            return nil
        }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.count / 2 - 1)
        var index = 2
        while index < hex.count {
            guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = Data(bytes)
    }
}

extension Array: PostgresDecodable where Element == String {
    /// A one-dimensional array literal such as `{a,"b c",NULL}`; NULL elements are dropped.
    /// Read byte by byte: in UTF-8 no byte of a multi-byte character can be mistaken for `{`, `"`, `\`
    /// or `,`, and most arrays read on hot paths are empty (`{}`).
    public init?(postgresText: String) {
        var text = postgresText
        guard let elements = text.withUTF8({ Self.elements(ofArrayLiteral: $0) }) else { return nil }
        self = elements
    }

    private static func elements(ofArrayLiteral bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var elements: [String] = []
        var index = 1
        let end = bytes.count - 1
        var element: [UInt8] = []
        while index < end {
            element.removeAll(keepingCapacity: true)
            var quoted = false
            if bytes[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    guard index < end else { return nil }
                    element.append(bytes[index])
                    index += 1
                }
                index += 1  // closing quote
            } else {
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    element.append(bytes[index])
                    index += 1
                }
            }
            if quoted || !element.elementsEqual("NULL".utf8) { elements.append(String(decoding: element, as: UTF8.self)) }
            if index < end {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }
        return elements
    }
}
