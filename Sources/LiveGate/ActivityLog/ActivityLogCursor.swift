import APNsCore

/// Where a page of the activity log ends: the last entry's time (microseconds since 1970) and id. The
/// next page holds the entries strictly older in (time, id) order, so paging returns each entry once
/// even while new ones are written. Sent as an opaque base64url token.
public struct ActivityLogCursor: Sendable, Equatable {
    public let occurredAtMicroseconds: Int64
    public let id: Int64

    public init(occurredAtMicroseconds: Int64, id: Int64) {
        self.occurredAtMicroseconds = occurredAtMicroseconds
        self.id = id
    }

    public init?(token: String) {
        guard let bytes = Base64URL.decode(token), bytes.count <= 64 else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let micros = Int64(parts[0]), let id = Int64(parts[1]), id > 0 else { return nil }
        self.init(occurredAtMicroseconds: micros, id: id)
    }

    public var token: String {
        Base64URL.encode(Array("\(occurredAtMicroseconds).\(id)".utf8))
    }
}
