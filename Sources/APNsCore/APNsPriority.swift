/// The `apns-priority` header: 10 delivers at once and counts against the device's budget for
/// high-priority updates; 5 is delivered opportunistically and has no such limit.
public struct APNsPriority: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init?(rawValue: Int) {
        guard rawValue == 5 || rawValue == 10 else { return nil }
        self.rawValue = rawValue
    }

    private init(uncheckedValue: Int) {
        self.rawValue = uncheckedValue
    }

    public static let immediate = APNsPriority(uncheckedValue: 10)
    public static let conservesPower = APNsPriority(uncheckedValue: 5)

    public var description: String { String(rawValue) }
}
