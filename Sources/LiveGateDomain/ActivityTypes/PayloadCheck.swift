import APNsCore

/// The outcome of ``PayloadSchema/check(_:at:)``: what to send, and every place the app would fail to decode.
package struct PayloadCheck: Sendable {
    /// The value to send: `apple-date` members given as ISO 8601 text are converted to seconds since
    /// 2001-01-01 (what a Swift `Date` decodes from); everything else is as given, number lexemes untouched.
    package var value: JSONValue
    /// Every mismatch, in the order the value lists its members (missing members after the others), at
    /// most ``PayloadSchema/mismatchLimit``: a value that wrong gains nothing from a longer list.
    package var mismatches: [PayloadMismatch]
    /// How many mismatches were found, those past the list's limit included.
    package var found: Int

    package init(value: JSONValue, mismatches: [PayloadMismatch], found: Int) {
        self.value = value
        self.mismatches = mismatches
        self.found = found
    }

    /// Whether the app's `JSONDecoder` would decode the value.
    package var isDecodable: Bool { mismatches.isEmpty }
}
