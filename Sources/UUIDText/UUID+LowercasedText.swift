import Foundation

extension UUID {
    /// The canonical text form in lower case, as PostgreSQL prints a `uuid`. Written out here because
    /// Foundation's `uuidString` formats through `snprintf` on Linux (and in upper case), on paths that
    /// turn every accepted message and every pushed device into text.
    public var lowercasedText: String {
        let hex: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                hex.withUTF8Buffer { digits in
                    var position = 0
                    for (index, byte) in bytes.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            text[position] = UInt8(ascii: "-")
                            position += 1
                        }
                        text[position] = digits[Int(byte >> 4)]
                        text[position + 1] = digits[Int(byte & 0x0F)]
                        position += 2
                    }
                    return position
                }
            }
        }
    }
}
