/// An HTTP/2 error code (RFC 9113 §7) for a simulated RST_STREAM, by the name the RFC gives it.
package struct HTTP2ResetCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt32

    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The server did not process the request: the client may send it again (RFC 9113 §8.7).
    package static let refusedStream = HTTP2ResetCode(rawValue: 0x7)
    package static let internalError = HTTP2ResetCode(rawValue: 0x2)
    package static let cancel = HTTP2ResetCode(rawValue: 0x8)

    /// RFC 9113's names, as the control API takes them.
    static let names: [String: UInt32] = [
        "NO_ERROR": 0x0, "PROTOCOL_ERROR": 0x1, "INTERNAL_ERROR": 0x2, "FLOW_CONTROL_ERROR": 0x3,
        "SETTINGS_TIMEOUT": 0x4, "STREAM_CLOSED": 0x5, "FRAME_SIZE_ERROR": 0x6, "REFUSED_STREAM": 0x7,
        "CANCEL": 0x8, "COMPRESSION_ERROR": 0x9, "CONNECT_ERROR": 0xA, "ENHANCE_YOUR_CALM": 0xB,
        "INADEQUATE_SECURITY": 0xC, "HTTP_1_1_REQUIRED": 0xD,
    ]

    init?(name: String) {
        guard let code = Self.names[name.uppercased()] else { return nil }
        self.init(rawValue: code)
    }

    /// The RFC's name, or the number for a code it does not name.
    package var description: String {
        Self.names.first { $0.value == rawValue }?.key ?? "0x" + String(rawValue, radix: 16)
    }
}
