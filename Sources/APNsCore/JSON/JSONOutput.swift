/// Writing JSON text onto a byte buffer: what the serializer and the APNs payload encoder share.
extension [UInt8] {
    /// Text fixed at compile time (punctuation, APNs keys), copied as is.
    mutating func appendRaw(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func appendJSONInteger(_ value: some BinaryInteger) {
        append(contentsOf: String(value).utf8)
    }

    /// A string in quotes. Only `"`, `\` and control characters are escaped; `/` and non-ASCII
    /// text go out as they are, which RFC 8259 allows and keeps payloads small.
    mutating func appendJSONString(_ string: String) {
        append(.quote)
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
                append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(for: byte)
                runStart = index + 1
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        append(.quote)
    }

    private mutating func appendEscape(for byte: UInt8) {
        switch byte {
        case .quote: appendRaw(#"\""#)
        case .backslash: appendRaw(#"\\"#)
        case .lineFeed: appendRaw(#"\n"#)
        case .carriageReturn: appendRaw(#"\r"#)
        case .tab: appendRaw(#"\t"#)
        case .backspace: appendRaw(#"\b"#)
        case .formFeed: appendRaw(#"\f"#)
        default:
            appendRaw(#"\u00"#)
            append(hexDigit(byte >> 4))
            append(hexDigit(byte & 0x0F))
        }
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? .digitZero + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
