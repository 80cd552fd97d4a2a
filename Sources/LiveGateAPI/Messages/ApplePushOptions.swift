import APNsCore
import LiveGateDomain

/// Braze's `apple_push` object as a Live Activity message carries it in `notification`.
struct ApplePushOptions {
    var alert: LiveActivityAlert?
    var apnsPriority: APNsPriority?
    var contentAvailable = false

    /// `alert` may be a string (the body) or an object with `title`, `body`, `title_loc_key`,
    /// `title_loc_args`, `loc_key`, `loc_args` and `sound`; `sound` may also sit beside `alert`.
    static func read(_ fields: FieldReader) -> ApplePushOptions {
        var options = ApplePushOptions()
        options.apnsPriority = fields.priority("apns_priority")
        if let value = fields.value("content-available") {
            switch value {
            case .bool(let flag): options.contentAvailable = flag
            case .number(let lexeme) where lexeme == "0" || lexeme == "1": options.contentAvailable = lexeme == "1"
            default: fields.problems.add("\(fields.name("content-available")) must be true or false")
            }
        }
        let outerSound = fields.string("sound", maxLength: 256)
        if let text = fields.value("alert")?.stringValue {
            options.alert = LiveActivityAlert(title: nil, body: .plain(text), sound: outerSound)
        } else if let alert = fields.nested("alert") {
            let title = text(alert, plain: "title", key: "title_loc_key", arguments: "title_loc_args")
            let body = text(alert, plain: "body", key: "loc_key", arguments: "loc_args")
            let sound = alert.string("sound", maxLength: 256) ?? outerSound
            if title != nil || body != nil || sound != nil {
                options.alert = LiveActivityAlert(title: title, body: body, sound: sound)
            }
        } else if let sound = outerSound {
            options.alert = LiveActivityAlert(title: nil, body: nil, sound: sound)
        }
        return options
    }

    /// A title or body: plain text, or a localization key with its arguments, not both.
    private static func text(_ fields: FieldReader, plain: String, key: String, arguments: String) -> AlertText? {
        let plainText = fields.string(plain, maxLength: 4096)
        let locKey = fields.string(key, maxLength: 1024)
        let locArgs = fields.strings(arguments, maxLength: 1024)
        if plainText != nil, locKey != nil {
            fields.problems.add("give \(fields.name(plain)) or \(fields.name(key)), not both")
            return nil
        }
        if let locKey { return .localized(key: locKey, arguments: locArgs ?? []) }
        if locArgs != nil { fields.problems.add("\(fields.name(arguments)) needs \(fields.name(key))") }
        return plainText.map(AlertText.plain)
    }
}
