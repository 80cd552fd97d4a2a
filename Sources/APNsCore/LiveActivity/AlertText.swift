/// An alert's title or body: literal text, or a key into the app's `Localizable.strings` with the
/// arguments for its format specifiers, localized on the device.
public enum AlertText: Sendable, Equatable {
    case plain(String)
    case localized(key: String, arguments: [String])
}

extension AlertText {
    /// A string, or `{"loc-key":…,"loc-args":[…]}` with `loc-args` left out when there are none.
    func serialize(into bytes: inout [UInt8]) {
        switch self {
        case .plain(let text):
            bytes.appendJSONString(text)
        case .localized(let key, let arguments):
            bytes.appendRaw(#"{"loc-key":"#)
            bytes.appendJSONString(key)
            if !arguments.isEmpty {
                bytes.appendRaw(#","loc-args":["#)
                for (index, argument) in arguments.enumerated() {
                    if index > 0 { bytes.append(.comma) }
                    bytes.appendJSONString(argument)
                }
                bytes.append(.closeBracket)
            }
            bytes.append(.closeBrace)
        }
    }
}
