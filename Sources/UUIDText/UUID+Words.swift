import Foundation

extension UUID {
    /// The UUID whose 128 bits are `high` then `low`, most significant byte first.
    public init(high: UInt64, low: UInt64) {
        self = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}
