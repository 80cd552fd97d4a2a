import APNsCore

/// Where a keyset page ends: the last row's time (microseconds since 1970) and id. The next page holds
/// the rows strictly beyond it in (time, id) order, so paging returns each row once even while rows are
/// added. Sent as an opaque base64url token; shared by the activity log and the channel list.
package struct KeysetCursor: Sendable, Equatable {
    package let microseconds: Int64
    package let id: Int64

    package init(microseconds: Int64, id: Int64) {
        self.microseconds = microseconds
        self.id = id
    }

    package init?(token: String) {
        guard let bytes = Base64URL.decode(token), bytes.count <= 64 else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let micros = Int64(parts[0]), let id = Int64(parts[1]), id > 0 else { return nil }
        self.init(microseconds: micros, id: id)
    }

    package var token: String {
        Base64URL.encode(Array("\(microseconds).\(id)".utf8))
    }
}
