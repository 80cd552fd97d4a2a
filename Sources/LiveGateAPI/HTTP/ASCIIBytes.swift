import LiveGateDomain
/// Byte-level helpers for HTTP header values, which are ASCII: the middleware parses a header on every
/// request, and these spare it String's Unicode machinery.
extension UInt8 {
    /// `A`–`Z` as `a`–`z`; every other byte as it is.
    var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }

    /// HTTP's optional whitespace (RFC 9110 §5.6.3).
    var isSpaceOrTab: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}

extension BidirectionalCollection where Element == UInt8, SubSequence == Self {
    /// Without leading and trailing spaces and tabs.
    func trimmingOptionalWhitespace() -> Self {
        var trimmed = drop(while: \.isSpaceOrTab)
        while let last = trimmed.last, last.isSpaceOrTab { trimmed = trimmed.dropLast() }
        return trimmed
    }

    /// The same bytes, ASCII letters compared without case.
    func equalsIgnoringASCIICase(_ other: some Collection<UInt8>) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
    }
}
