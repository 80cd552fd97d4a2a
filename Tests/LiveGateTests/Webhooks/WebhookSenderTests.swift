import APNsCore
import Foundation
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// The sender against a real receiver: order, batches, signatures, failures and their retries, the
/// pause, and leases between senders.
@Suite("Webhook sender", .requiresPostgres)
struct WebhookSenderTests {
    @Test func theSignatureIsHMACSHA256() {
        // RFC 4231, test case 2.
        let digest = WebhookSignature.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(WebhookSignature.hex(digest) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            WebhookSignature.header(secret: "Jefe", timestamp: 1_700_000_000, body: Array("{}".utf8)).hasPrefix("t=1700000000,v1="))
    }

    @Test func eventsArriveInOrderInSignedBatchesOfAtMost500() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let (_, secret) = try await harness.endpoint(url)
                var ids = try await harness.insert(700)
                ids += try await harness.insert(500, from: 700)
                try await harness.running([harness.sender()]) {
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= 1200 }
                    #expect(arrived)
                }
                #expect(receiver.deliveredIDs == ids)
                let batches = receiver.batches
                #expect(batches.allSatisfy { $0.events.count <= 500 && $0.status == 200 })
                #expect(batches.allSatisfy { $0.isSigned(with: secret) })
                #expect(batches.allSatisfy { $0.contentType == "application/json" })
                #expect(!batches[0].isSigned(with: secret + "0"))
                let first = try #require(batches.first?.events.first)
                #expect(first["type"]?.stringValue == "push.sent")
                #expect(first["workspace_id"]?.stringValue == harness.tenant.workspace.id.uuidString.lowercased())
                #expect(first["app_id"]?.stringValue == harness.tenant.app.identifier)
                #expect(first["n"] == .number("0"))
            }
        }
    }

    @Test func aReceiverFailingForAWhileMissesNothing() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let (id, _) = try await harness.endpoint(url)
                receiver.status = 503
                var ids = try await harness.insert(30)
                try await harness.running([harness.sender()]) {
                    let tried = try await receiver.wait { $0.batches.count >= 3 }
                    #expect(tried)
                    ids += try await harness.insert(20, from: 30)
                    let failing = try await harness.row(id)
                    #expect(try failing.require("failures", as: Int.self) >= 1)
                    #expect(try failing.require("last_error", as: String.self).hasPrefix("HTTP 503"))
                    receiver.status = 200
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= 50 }
                    #expect(arrived)
                }
                // At least once, in order: what was delivered is every event, each in its place.
                #expect(receiver.deliveredIDs == ids)
                #expect(receiver.batches.filter { $0.status == 503 }.allSatisfy { $0.ids.first == ids.first })
                let row = try await harness.row(id)
                #expect(try row.require("failures", as: Int.self) == 0)
                #expect(try row.require("delivered_events", as: Int.self) == 50)
            }
        }
    }

    @Test func failingPastTheRetryPeriodPausesUntilResumed() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let (id, _) = try await harness.endpoint(url)
                receiver.status = 503
                let ids = try await harness.insert(10)
                var settings = WebhookHarness.settings
                settings.retryPeriod = .seconds(1)
                try await harness.running([harness.sender(settings: settings)]) {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while try await !harness.row(id).require("paused", as: Bool.self), ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(try await harness.row(id).require("paused", as: Bool.self))
                    let tried = receiver.batches.count
                    try await Task.sleep(for: .milliseconds(600))
                    #expect(receiver.batches.count == tried, "a paused endpoint is sent nothing")
                    receiver.status = 200
                    let resumed = try await harness.store.resume(id: id, workspaceID: harness.tenant.workspace.id)
                    #expect(resumed?.pausedAt == nil && resumed?.failures == 0)
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= 10 }
                    #expect(arrived)
                }
                #expect(receiver.deliveredIDs == ids)
            }
        }
    }

    @Test func onlyTheEndpointsWorkspaceAppAndTypesReachIt() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let otherApp = try await harness.database.makeApp(in: harness.tenant.workspace, bundleID: "com.example.other")
                let otherWorkspace = try await harness.database.makeWorkspace(name: "other")
                _ = try await harness.endpoint(url, types: [.pushSent, .tokenRegistered], appID: harness.tenant.app.id)
                var wanted = try await harness.insert(3)
                try await harness.insert(3, type: .pushFailed)
                try await harness.insert(3, appID: otherApp.id)
                try await harness.insert(3, workspaceID: otherWorkspace.id, appID: .some(nil))
                // An event of no app belongs to every app of its workspace.
                wanted += try await harness.insert(2, type: .tokenRegistered, appID: .some(nil))
                wanted += try await harness.insert(1, from: 3)
                try await harness.running([harness.sender()]) {
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= wanted.count }
                    #expect(arrived)
                    try await Task.sleep(for: .milliseconds(300))
                }
                #expect(receiver.deliveredIDs == wanted)
            }
        }
    }

    @Test func twoSendersNeverSendToOneEndpointAtOnce() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                _ = try await harness.endpoint(url)
                receiver.setDelay(.milliseconds(30))
                var ids: [String] = []
                for round in 0..<6 { ids += try await harness.insert(400, from: round * 400) }
                try await harness.running([harness.sender(worker: "sender-a"), harness.sender(worker: "sender-b")]) {
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= ids.count }
                    #expect(arrived)
                }
                #expect(receiver.mostInFlight == 1)
                #expect(receiver.deliveredIDs == ids)
            }
        }
    }

    @Test func anExpiredLeaseIsTakenOver() async throws {
        try await WebhookHarness.with { harness in
            try await WebhookReceiver.with { receiver, url in
                let (id, _) = try await harness.endpoint(url)
                let ids = try await harness.insert(5)
                // A gateway that died holding it: its lease runs out a second from now.
                try await harness.database.pool.query(
                    "UPDATE webhook_endpoints SET leased_by = 'dead', leased_until = now() + interval '1 second' WHERE id = $1", [id])
                let started = ContinuousClock.now
                try await harness.running([harness.sender()]) {
                    let arrived = try await receiver.wait { $0.deliveredIDs.count >= 5 }
                    #expect(arrived)
                }
                #expect(ContinuousClock.now - started >= .milliseconds(900))
                #expect(receiver.deliveredIDs == ids)
            }
        }
    }
}
