extension JSONParser {
    /// A string, starting at its opening quote. One without escapes (the usual case) becomes a
    /// `String` straight from the input bytes; escapes are decoded into `scratch` first.
    mutating func parseString() throws(JSONParseError) -> String {
        let openingQuote = position
        position += 1
        var segmentStart = position
        var hasEscapes = false
        while true {
            // Plain ASCII is most of most strings: step over it before looking at anything else.
            while position < bytes.count, bytes[position] >= 0x20, bytes[position] < 0x80,
                bytes[position] != .quote, bytes[position] != .backslash
            {
                position += 1
            }
            guard !isAtEnd else {
                throw .unexpectedEndOfInput(
                    at: position, expecting: "'\"' to close the string that starts at byte \(openingQuote)")
            }
            let byte = bytes[position]
            switch byte {
            case .quote:
                let tail = UnsafeBufferPointer(rebasing: bytes[segmentStart..<position])
                position += 1
                guard hasEscapes else { return String(decoding: tail, as: UTF8.self) }
                scratch.append(contentsOf: tail)
                return String(decoding: scratch, as: UTF8.self)
            case .backslash:
                if !hasEscapes {
                    hasEscapes = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<position]))
                try parseEscape()
                segmentStart = position
            case 0..<0x20:
                throw .invalidString(
                    at: position,
                    "control character \(JSONParseError.hex(byte)) must be escaped, e.g. as \\n or \\u00XX")
            case 0x80...:
                try skipUTF8Sequence()
            default:
                position += 1
            }
        }
    }

    /// One escape, starting at its backslash, decoded onto `scratch`. Errors point at the backslash.
    private mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = position
        position += 1
        let byte = try peek(expecting: "an escape character after '\\'")
        position += 1
        switch byte {
        case .quote, .backslash, .slash: scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(.backspace)
        case UInt8(ascii: "f"): scratch.append(.formFeed)
        case UInt8(ascii: "n"): scratch.append(.lineFeed)
        case UInt8(ascii: "r"): scratch.append(.carriageReturn)
        case UInt8(ascii: "t"): scratch.append(.tab)
        case UInt8(ascii: "u"): appendUTF8(try parseUnicodeEscape(startingAt: escapeStart))
        default:
            throw .invalidString(
                at: escapeStart, "\(JSONParseError.describe(byte)) cannot follow '\\' (valid: \" \\ / b f n r t u)")
        }
    }

    /// The scalar of a `\uXXXX` escape whose `\u` has been read; a UTF-16 surrogate pair takes two
    /// escapes in a row, and half of one alone is refused, since no string can hold it.
    private mutating func parseUnicodeEscape(startingAt escapeStart: Int) throws(JSONParseError) -> UInt32 {
        let unit = try parseHexQuad(escapeStart: escapeStart)
        switch unit {
        case 0xD800...0xDBFF:
            guard position + 1 < bytes.count, bytes[position] == .backslash, bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw .invalidString(at: escapeStart, "\\u\(hex(unit)) is a high surrogate without a low one after it")
            }
            let lowStart = position
            position += 2
            let low = try parseHexQuad(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .invalidString(at: escapeStart, "\\u\(hex(unit)) is a high surrogate without a low one after it")
            }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw .invalidString(at: escapeStart, "\\u\(hex(unit)) is a low surrogate without a high one before it")
        default:
            return unit
        }
    }

    private mutating func parseHexQuad(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek(expecting: "four hex digits after \\u")
            let digit: UInt8
            switch byte {
            case .digitZero ... .digitNine: digit = byte - .digitZero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidString(at: escapeStart, "\\u must be followed by four hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, refusing what Unicode's table 3-7 forbids: overlong
    /// forms, surrogates, values past U+10FFFF and sequences cut short. Errors point at the lead byte.
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[position]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw .invalidUTF8(lead, at: position)
        }
        guard position + length <= bytes.count, second.contains(bytes[position + 1]) else {
            throw .invalidUTF8(lead, at: position)
        }
        for continuation in 2..<length where !(0x80...0xBF).contains(bytes[position + continuation]) {
            throw .invalidUTF8(lead, at: position)
        }
        position += length
    }
}
