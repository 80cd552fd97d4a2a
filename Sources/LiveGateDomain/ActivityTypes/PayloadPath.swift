import APNsCore

/// How paths are written in schema errors and mismatches: members by `.name`, elements by `[2]`. A key that
/// is not a plain identifier is written as a quoted JSON string, `["arrival time"]`, so a path reads back
/// unambiguously.
enum PayloadPath {
    static func member(_ key: String, of path: String) -> String {
        isIdentifier(key) ? path + "." + key : path + "[" + JSONValue.string(key).description + "]"
    }

    static func element(_ index: Int, of path: String) -> String {
        path + "[" + String(index) + "]"
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    private static func isIdentifier(_ key: String) -> Bool {
        var bytes = key.utf8.makeIterator()
        guard let first = bytes.next(), isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }
}

/// The path to the value being checked, kept as components and written out only for a mismatch, so a
/// value that matches costs no string building.
struct PayloadPathStack {
    enum Component {
        case member(String)
        case element(Int)
    }

    private let base: String
    private var components: [Component] = []

    init(base: String) {
        self.base = base
    }

    mutating func push(_ component: Component) {
        components.append(component)
    }

    mutating func pop() {
        components.removeLast()
    }

    var text: String {
        components.reduce(base) { path, component in
            switch component {
            case .member(let key): PayloadPath.member(key, of: path)
            case .element(let index): PayloadPath.element(index, of: path)
            }
        }
    }
}
