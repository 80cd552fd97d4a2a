import Foundation

@available(iOS 16.0, macOS 13.0, *)
extension Data {
    /// A push token as APNs and the gateway take it: lower-case hex.
    var hexToken: String {
        var text = ""
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(Self.digits[Int(byte >> 4)])
            text.append(Self.digits[Int(byte & 0x0f)])
        }
        return text
    }

    private static let digits = Array("0123456789abcdef")
}
