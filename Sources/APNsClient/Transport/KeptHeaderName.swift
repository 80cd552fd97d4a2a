/// A response header a client keeps (`HTTP2ClientConfiguration.responseHeaderNames`): its lower-case
/// name, compared with each header line's bytes without allocating, and kept as the string the answer
/// files it under, made once rather than for every answer.
struct KeptHeaderName: Sendable {
    let name: String

    init(_ name: String) {
        self.name = name.lowercased()
    }

    /// Whether a header line's name is this one, in any case.
    func matches(_ lineName: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        // ASCII letters only differ in bit 0x20; header names are ASCII. The name's own UTF-8 is read in
        // place (header names this short are stored inline), not through an array of its bytes.
        name.utf8.count == lineName.count && name.utf8.elementsEqual(lineName) { $0 == $1 | 0x20 || $0 == $1 }
    }
}
