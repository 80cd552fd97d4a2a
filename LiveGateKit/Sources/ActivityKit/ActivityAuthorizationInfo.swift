// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signatures:
// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo
// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo/frequentpushesenabled
// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo/frequentpushenablementupdates-swift.property

import Foundation

/// Apple's `ActivityAuthorizationInfo`: whether the person allows this app's Live Activities, and their
/// frequent push updates. Stand-in: the frequent-updates setting only, played by
/// `standInSetFrequentPushesEnabled(_:)`.
@available(iOS 16.1, *)
public final class ActivityAuthorizationInfo: @unchecked Sendable {
    /// The device's setting, shared by every instance as on iOS; off until a test turns it on.
    static let frequentPushes = FrequentPushesSetting()

    public init() {}

    /// Apple's `frequentPushesEnabled` (iOS 16.2): whether the person allowed frequent updates.
    @available(iOS 16.2, *)
    public var frequentPushesEnabled: Bool {
        Self.frequentPushes.enabled
    }

    /// Apple's `frequentPushEnablementUpdates` (iOS 16.2): each change of the setting.
    @available(iOS 16.2, *)
    public var frequentPushEnablementUpdates: FrequentPushEnablementUpdates {
        FrequentPushEnablementUpdates(source: Self.frequentPushes.changes)
    }

    /// Apple's `ActivityAuthorizationInfo.FrequentPushEnablementUpdates`: an asynchronous sequence of the
    /// setting's values.
    @available(iOS 16.2, *)
    public struct FrequentPushEnablementUpdates: AsyncSequence {
        public typealias Element = Bool

        let source: Broadcaster<Bool>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: source.subscribe().makeAsyncIterator())
        }

        /// Apple's `FrequentPushEnablementUpdates.Iterator`.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            var base: AsyncStream<Bool>.Iterator

            public mutating func next() async -> Bool? {
                await base.next()
            }
        }
    }
}

/// Not part of Apple's ActivityKit: the device's frequent-updates setting and its changes.
final class FrequentPushesSetting: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    let changes = Broadcaster<Bool>(replaysLatest: false)

    var enabled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ enabled: Bool) {
        lock.lock()
        let changed = value != enabled
        value = enabled
        lock.unlock()
        if changed { changes.yield(enabled) }
    }
}
