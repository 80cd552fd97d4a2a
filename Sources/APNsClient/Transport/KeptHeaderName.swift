/// A response header a client keeps (`HTTP2ClientConfiguration.responseHeaderNames`): its lower-case
/// name as bytes, to compare with each header line without allocating, and as the string it is kept
/// under, made once rather than for every answer.
struct KeptHeaderName: Sendable {
    let name: String
    let bytes: [UInt8]

    init(_ name: String) {
        self.name = name.lowercased()
        self.bytes = Array(self.name.utf8)
    }

    /// Whether a header line's name is this one, in any case.
    func matches(_ lineName: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        // ASCII letters only differ in bit 0x20; header names are ASCII.
        bytes.count == lineName.count && bytes.elementsEqual(lineName) { $0 == $1 | 0x20 || $0 == $1 }
    }
}
