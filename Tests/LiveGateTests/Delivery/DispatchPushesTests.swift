import APNsClient
import APNsCore
import Foundation
import LiveGateDelivery
import LiveGateDomain
import Testing

/// A dispatch's pushes to a page of devices: one per device, each with its own `apns-id`, all with the
/// dispatch's payload; the batches they go out in each carry a copy of the payload of their own.
@Suite("A dispatch's pushes")
struct DispatchPushesTests {
    static let dispatch = Dispatch(
        workspaceID: UUID(), appID: UUID(), event: .update, activityID: "order-1", externalID: nil,
        payload: Array(#"{"aps":{"event":"update","content-state":{"home":1}}}"#.utf8), priority: .immediate,
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    static func page(_ count: Int) -> [FanoutTarget] {
        (0..<count).map { FanoutTarget(cursor: Int64($0 + 1), token: PushToken(hex: String(format: "%064x", $0 + 1))!) }
    }

    static func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func eachDeviceGetsThePayloadWithAnIDOfItsOwn() {
        var ids = APNsIDGenerator()
        let targets = Self.page(5)
        let pushes = Self.dispatch.pushes(to: targets, ids: &ids)
        #expect(pushes.map(\.deviceToken) == targets.map(\.token))
        #expect(pushes.allSatisfy { $0.payload == Self.dispatch.payload && $0.priority == .immediate })
        #expect(pushes.allSatisfy { $0.expiresAt == Self.dispatch.expiresAt })
        #expect(Set(pushes.map(\.apnsID)).count == 5)
    }

    /// Seven pushes in batches of three: pushes 0–2, 3–5 and 6 each share a payload storage of their
    /// own, none of them the dispatch's, and every one holds the dispatch's bytes.
    @Test func eachBatchCarriesACopyOfThePayloadOfItsOwn() {
        var ids = APNsIDGenerator()
        let pushes = Self.dispatch.pushes(to: Self.page(7), ids: &ids, payloadSharedBy: 3)
        #expect(pushes.allSatisfy { $0.payload == Self.dispatch.payload })
        let storages = pushes.map { Self.storage($0.payload) }
        #expect(Set(storages[0..<3]).count == 1)
        #expect(Set(storages[3..<6]).count == 1)
        #expect(Set([storages[0], storages[3], storages[6]]).count == 3)
        #expect(!storages.contains(Self.storage(Self.dispatch.payload)))
    }
}
