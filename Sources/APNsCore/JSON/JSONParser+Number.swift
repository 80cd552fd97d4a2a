extension JSONParser {
    /// A number's lexeme, checked against RFC 8259's grammar but kept as text:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = position
        if bytes[position] == .minus { position += 1 }
        guard !isAtEnd, bytes[position].isDigit else { throw .invalidNumber(at: position, "expected a digit") }
        if bytes[position] == .digitZero {
            position += 1
            if !isAtEnd, bytes[position].isDigit {
                throw .invalidNumber(at: position, "leading zeros are not allowed")
            }
        } else {
            skipDigits()
        }
        if !isAtEnd, bytes[position] == .dot {
            position += 1
            guard !isAtEnd, bytes[position].isDigit else {
                throw .invalidNumber(at: position, "expected a digit after the decimal point")
            }
            skipDigits()
        }
        if !isAtEnd, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if !isAtEnd, bytes[position] == .plus || bytes[position] == .minus { position += 1 }
            guard !isAtEnd, bytes[position].isDigit else {
                throw .invalidNumber(at: position, "expected a digit in the exponent")
            }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func skipDigits() {
        while !isAtEnd, bytes[position].isDigit { position += 1 }
    }
}
