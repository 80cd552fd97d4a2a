/// The bytes JSON's grammar is made of, named so the parser and serializer read as the grammar does.
extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let backspace: UInt8 = 0x08
    static let formFeed: UInt8 = 0x0C
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let digitZero = UInt8(ascii: "0")
    static let digitNine = UInt8(ascii: "9")

    var isDigit: Bool { self >= .digitZero && self <= .digitNine }
}
