/// The alert that lights up the device when an update, end or start arrives.
public struct LiveActivityAlert: Sendable, Equatable {
    public var title: AlertText?
    public var body: AlertText?
    /// A sound file in the app bundle, or `"default"`.
    public var sound: String?

    public init(title: AlertText? = nil, body: AlertText? = nil, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }

    /// True when there is nothing to show or play; such an alert is left out of the payload.
    public var isEmpty: Bool { title == nil && body == nil && sound == nil }
}

extension LiveActivityAlert {
    /// `{"title":…,"body":…,"sound":…}` with absent fields left out.
    func serialize(into bytes: inout [UInt8]) {
        var isFirst = true
        func key(_ name: StaticString) {
            if !isFirst { bytes.append(.comma) }
            isFirst = false
            bytes.appendRaw(name)
        }
        bytes.append(.openBrace)
        if let title {
            key(#""title":"#)
            title.serialize(into: &bytes)
        }
        if let body {
            key(#""body":"#)
            body.serialize(into: &bytes)
        }
        if let sound {
            key(#""sound":"#)
            bytes.appendJSONString(sound)
        }
        bytes.append(.closeBrace)
    }
}
