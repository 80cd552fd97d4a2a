/// An APNs device token (update or push-to-start) as lower-case hex, the form APNs takes in its path.
///
/// `description` masks all but the last 8 hex digits: tokens identify a device and do not belong in logs.
public struct PushToken: Sendable, Hashable, CustomStringConvertible {
    /// APNs tokens are 32 bytes today, longer ones have been announced; 200 bytes leaves room.
    public static let maximumBytes = 200

    public let hex: String

    /// Nil unless `hex` is an even number of hex digits, 2 to 400 of them (either case).
    public init?(hex: String) {
        let utf8 = hex.utf8
        guard !utf8.isEmpty, utf8.count % 2 == 0, utf8.count <= Self.maximumBytes * 2 else { return nil }
        // A fan-out reads a thousand tokens a page: their bytes are checked in place where they can be.
        guard let digits = utf8.withContiguousStorageIfAvailable({ Self.digits(of: $0) }) ?? Self.digits(of: utf8) else { return nil }
        // Tokens read back from the database are lower-case already: kept as they are, not copied.
        self.hex = digits == .upperCase ? hex.lowercased() : hex
    }

    private enum Digits {
        case lowerCase
        case upperCase
    }

    /// Whether `bytes` are all hex digits, and any of them upper-case; nil when some byte is not one.
    private static func digits(of bytes: some Sequence<UInt8>) -> Digits? {
        var hasUpperCase = false
        for byte in bytes {
            switch byte {
            case 0x30...0x39, 0x61...0x66: continue
            case 0x41...0x46: hasUpperCase = true
            default: return nil
            }
        }
        return hasUpperCase ? .upperCase : .lowerCase
    }

    /// The last 8 hex digits, as the activity log shows them.
    public var masked: String { "…" + hex.suffix(8) }

    public var description: String { masked }
}
