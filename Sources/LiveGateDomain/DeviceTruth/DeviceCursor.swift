import APNsCore

/// Where a page of an activity's devices ends: the last device id, sent as an opaque base64url token.
package struct DeviceCursor: Sendable, Equatable {
    package let afterDeviceID: String

    /// A device id is at most 256 characters, 1,024 bytes of UTF-8: 1,366 characters of base64url.
    package static let maximumTokenLength = 1_400

    package init(afterDeviceID: String) {
        self.afterDeviceID = afterDeviceID
    }

    package init?(token: String) {
        guard let bytes = Base64URL.decode(token), !bytes.isEmpty, bytes.count <= 1_024, !bytes.contains(0),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        afterDeviceID = text
    }

    package var token: String { Base64URL.encode(Array(afterDeviceID.utf8)) }
}
