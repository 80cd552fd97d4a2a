import Foundation

/// The signed-in user, set at once by `LiveGate.changeUser(userId:)` from any thread and read by every
/// report as it is queued: a report made after the call names the new user, even while the outbox is
/// still sending the device's registrations again under them.
@available(iOS 16.0, macOS 13.0, *)
final class CurrentUser: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    init(_ externalID: String?) {
        value = externalID
    }

    var externalID: String? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            value = newValue
        }
    }
}
