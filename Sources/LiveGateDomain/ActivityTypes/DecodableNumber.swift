/// Which JSON numbers Foundation's `JSONDecoder` decodes into a Swift `Int` or `Double`, as the Foundation
/// of Swift 6 does (swift-foundation's JSONDecoder, the one ActivityKit's apps link). Its rules are not the
/// obvious ones: `1.0`, `1e2` and even `1e-400` decode as an `Int`, while `1e-400` does not decode as a
/// `Double`. The tests hold these answers against the real decoder.
enum DecodableNumber {
    /// The `Double` a `Double` (or a `Date`, which decodes one) reads from `lexeme`, or nil where the decoder
    /// throws: beyond `Double`'s range, or so small it would read as zero although it is not.
    static func double(_ lexeme: String) -> Double? {
        // A short plain integer is exact as a Double: no need for strtod, the common case's cost.
        if lexeme.utf8.count <= 15, let integer = Int64(lexeme) { return Double(integer) }
        guard let value = Double(lexeme), value.isFinite else { return nil }
        guard value != 0 || isZero(lexeme) else { return nil }
        return value
    }

    /// Whether an `Int` (64 bits) decodes from `lexeme`. A plain integer must fit. Anything else is read as
    /// a `Double` first, which must be a whole number an `Int` holds (so `1.0000000000000000001` reads as
    /// 1); from 2^53 up the text is read again as a `Decimal` and truncated (`decimalReadsAsInt`).
    static func readsAsInt(_ lexeme: String) -> Bool {
        if Int64(lexeme) != nil { return true }
        guard let value = Double(lexeme), Int64(exactly: value) != nil else { return false }
        return value.magnitude < 0x1p53 || decimalReadsAsInt(lexeme)
    }

    /// Whether `lexeme` writes zero, by the decoder's test: a digit 1–9 means a nonzero number that read as
    /// zero, an `e` ends the test. The decoder reads four bytes at a time and the last `count % 4` bytes
    /// backwards, so in `0e5` it meets the `5` first and refuses the number; later Foundations read in
    /// order and take it. Refusing what this one refuses is right for both.
    private static func isZero(_ lexeme: String) -> Bool {
        let bytes = Array(lexeme.utf8)
        let tail = bytes.count - bytes.count % 4
        for byte in bytes[..<tail] + bytes[tail...].reversed() {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            default: continue
            }
        }
        return true
    }
}
