extension LiveActivityPayload {
    /// The push body, `{"aps":{…}}`, compact and written straight to bytes (no `JSONEncoder`).
    ///
    /// Keys go out in a fixed order: timestamp, event, content-state, stale-date, dismissal-date,
    /// relevance-score, alert, attributes-type, attributes, input-push-channel or input-push-token (a
    /// channel wins). Absent fields are left out. The size is not checked here; compare `count` with
    /// ``maximumSize``.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.appendRaw(#"{"aps":{"timestamp":"#)
        bytes.appendJSONInteger(timestamp)
        bytes.appendRaw(#","event":"#)
        bytes.appendJSONString(event.rawValue)
        bytes.appendRaw(#","content-state":"#)
        contentState.serialize(into: &bytes)
        if let staleDate {
            bytes.appendRaw(#","stale-date":"#)
            bytes.appendJSONInteger(staleDate)
        }
        if let dismissalDate {
            bytes.appendRaw(#","dismissal-date":"#)
            bytes.appendJSONInteger(dismissalDate)
        }
        if let relevanceScore {
            bytes.appendRaw(#","relevance-score":"#)
            relevanceScore.serialize(into: &bytes)
        }
        if let alert, !alert.isEmpty {
            bytes.appendRaw(#","alert":"#)
            alert.serialize(into: &bytes)
        }
        if let attributesType {
            bytes.appendRaw(#","attributes-type":"#)
            bytes.appendJSONString(attributesType)
        }
        if let attributes {
            bytes.appendRaw(#","attributes":"#)
            attributes.serialize(into: &bytes)
        }
        if let inputPushChannel {
            bytes.appendRaw(#","input-push-channel":"#)
            bytes.appendJSONString(inputPushChannel.rawValue)
        } else if inputPushToken {
            bytes.appendRaw(#","input-push-token":1"#)
        }
        bytes.appendRaw("}}")
        return bytes
    }
}
