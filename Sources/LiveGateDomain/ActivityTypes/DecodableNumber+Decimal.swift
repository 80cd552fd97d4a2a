extension DecodableNumber {
    /// The largest 128-bit mantissa, the bound on how many digits a `Decimal` keeps.
    private static let largestMantissa = Array("340282366920938463463374607431768211455".utf8)

    /// Foundation's last resort for an `Int` written with a fraction or an exponent, at or beyond 2^53 where
    /// a `Double` no longer tells neighbouring integers apart: it parses the text as a `Decimal` and
    /// truncates toward zero. A `Decimal` has a 128-bit mantissa (the digits after it are dropped: integer
    /// digits raise the exponent, fraction digits are ignored) and an exponent from -128 to 127; trailing
    /// zeros move into the exponent; the `Int` comes out only if the mantissa then fits 64 bits. A text
    /// whose exponent leaves that range is refused: Foundation then throws, or stops the app.
    static func decimalReadsAsInt(_ lexeme: String) -> Bool {
        var bytes = lexeme.utf8.makeIterator()
        var byte = bytes.next()
        let negative = byte == UInt8(ascii: "-")
        if negative { byte = bytes.next() }

        var mantissa: [UInt8] = []
        var exponent = 0
        var full = false
        // The integer part.
        while let digit = byte, isDigit(digit) {
            byte = bytes.next()
            if !full, fits(digit, after: mantissa) {
                if !(mantissa.isEmpty && digit == UInt8(ascii: "0")) { mantissa.append(digit) }
                continue
            }
            full = true
            guard exponent < 127 else { return false }
            exponent += 1
        }
        // The fraction.
        if byte == UInt8(ascii: ".") {
            byte = bytes.next()
            while let digit = byte, isDigit(digit) {
                byte = bytes.next()
                guard !full else { continue }
                guard fits(digit, after: mantissa) else {
                    full = true
                    continue
                }
                if !(mantissa.isEmpty && digit == UInt8(ascii: "0")) { mantissa.append(digit) }
                guard exponent > -128 else { return false }
                exponent -= 1
            }
        }
        // The exponent.
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = bytes.next()
            let negativeExponent = byte == UInt8(ascii: "-")
            if negativeExponent || byte == UInt8(ascii: "+") { byte = bytes.next() }
            var written = 0
            while let digit = byte, isDigit(digit) {
                byte = bytes.next()
                written = written * 10 + Int(digit - UInt8(ascii: "0"))
                guard written <= 254 else { return false }
            }
            exponent += negativeExponent ? -written : written
            guard (-128...127).contains(exponent) else { return false }
        }

        while mantissa.last == UInt8(ascii: "0"), exponent < 127 {
            mantissa.removeLast()
            exponent += 1
        }
        guard mantissa.count <= 20, var magnitude = UInt64(String(decoding: mantissa, as: UTF8.self)) else {
            return mantissa.isEmpty && !negative
        }
        if exponent < 0 {
            for _ in 0 ..< -exponent { magnitude /= 10 }
        } else {
            for _ in 0..<exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return false }
                magnitude = product
            }
        }
        return Int64(exactly: magnitude) != nil
    }

    /// Whether the mantissa still fits 128 bits with `digit` appended: 38 digits always do, a 39th only
    /// below 2^128, and leading zeros take no room.
    private static func fits(_ digit: UInt8, after mantissa: [UInt8]) -> Bool {
        if mantissa.count < 38 { return true }
        guard mantissa.count == 38 else { return false }
        return (mantissa + [digit]).lexicographicallyPrecedes(largestMantissa) || mantissa + [digit] == largestMantissa
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
