import APNsCore

/// What the registered types make of a message's payload: the values to send (dates converted as
/// ActivityKit reads them), and the mismatches found, to refuse (`enforce`) or to warn about (`warn`).
package struct PayloadVerdict: Sendable {
    /// A type's mismatches for one message.
    package struct Finding: Sendable, Equatable {
        package let typeName: String
        package let mismatches: [PayloadMismatch]
    }

    package var contentState: JSONObject
    package var attributes: JSONObject?
    /// Mismatches of types in enforce mode: nothing of the message may be accepted.
    package var refusals: [PayloadMismatch] = []
    /// How many enforce-mode mismatches were found: more than `refusals` lists when a check reached its
    /// limit (``PayloadSchema/mismatchLimit``).
    package var refusalsFound = 0
    /// Mismatches of types in warn mode: the message goes, and they are logged and counted.
    package var warnings: [Finding] = []

    package init(contentState: JSONObject, attributes: JSONObject? = nil) {
        self.contentState = contentState
        self.attributes = attributes
    }

    /// Checks what the message carries against `type`, keeping the converted values.
    mutating func check(against type: ActivityType) {
        var (found, count) = check(&contentState, with: type.contentState, at: "$.content_state")
        if let schema = type.attributes, var attributes {
            let inAttributes = check(&attributes, with: schema, at: "$.activity_attributes")
            found += inAttributes.mismatches
            count += inAttributes.count
            self.attributes = attributes
        }
        guard !found.isEmpty else { return }
        if type.mode == .warn {
            warnings.append(Finding(typeName: type.name, mismatches: found))
        } else {
            refusals += found
            refusalsFound += count
        }
    }

    private func check(
        _ object: inout JSONObject, with schema: PayloadSchema, at path: String
    ) -> (mismatches: [PayloadMismatch], count: Int) {
        let checked = schema.check(.object(object), at: path)
        if let converted = checked.value.objectValue { object = converted }
        return (checked.mismatches, checked.found)
    }
}
