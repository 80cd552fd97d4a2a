/// A broadcast channel's id, as APNs gives it in `apns-channel-id` when the channel is created:
/// base64 text. Open: the text is kept as it came, so an id APNs changes the shape of still passes
/// through; ``isWellFormed`` says whether it is base64 at all.
public struct ChannelID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Standard base64 (RFC 4648 §4): not empty, whole 4-character groups, `=` only as the last one or
    /// two characters. APNs answers `BadChannelId` to anything else.
    public var isWellFormed: Bool {
        let bytes = Array(rawValue.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            let letter = byte | 0x20
            return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")) || byte.isDigit || byte == .plus || byte == .slash
        }
    }
}
