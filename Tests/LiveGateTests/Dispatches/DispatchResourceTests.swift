import APNsCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

@Suite("The dispatch as a resource: GET and DELETE /messages/live_activity/dispatches/{id}", .requiresPostgres)
struct DispatchResourceTests {
    @Test func aDispatchShowsWhatWasAskedAndWhereItStands() async throws {
        try await DispatchAPI.with(clock: MessageClock(now: { Date(timeIntervalSince1970: 1_800_000_000) })) { api in
            let id = try await api.update("match-9", externalID: "fan-7", end: true)
            try await api.database.pool.query(
                """
                UPDATE dispatches SET status = 'done', completed_at = '2027-01-15T08:00:05.250Z', sent_count = 3,
                    failed_count = 1, retried_count = 2, removed_count = 1, created_at = '2027-01-15T08:00:00.125Z'
                WHERE id = $1
                """, [id])
            let response = try await api.get(id)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            try expectJSON(
                try response.json,
                equals: """
                    {"dispatch_id":"\(id)","app_id":"\(api.tenant.app.identifier)","activity_id":"match-9","event":"end",
                     "external_id":"fan-7","status":"done","accepted_at":"2027-01-15T08:00:00.125Z","send_at":null,
                     "completed_at":"2027-01-15T08:00:05.250Z","superseded_by":null,
                     "devices":{"sent":3,"failed":1,"retried":2,"removed":1},"confirmation":null,"audience":null,"message":"success"}
                    """)
        }
    }

    @Test func aScheduledDispatchShowsItsSendTime() async throws {
        try await DispatchAPI.with { api in
            let id = try await api.update(sendAt: "\(Self.tomorrow())T00:00:00Z")
            let json = try await api.get(id).json
            #expect(json["status"]?.stringValue == "scheduled")
            #expect(json["send_at"]?.stringValue == "\(Self.tomorrow())T00:00:00.000Z")
            #expect(json["completed_at"]?.isNull == true)
        }
    }

    @Test func anotherWorkspacesDispatchAnUnknownIdAndANonUUIDAreNotFound() async throws {
        try await DispatchAPI.with { api in
            let id = try await api.update()
            let stranger = try await api.database.makeTenant()
            for (target, key) in [(id, stranger.secret), (UUID().uuidString, api.tenant.secret), ("not-a-uuid", api.tenant.secret)] {
                let shown = try await api.get(target, key: key)
                #expect(shown.status == .notFound, "GET \(target)")
                #expect(try shown.json["message"]?.stringValue == "Dispatch not found")
                #expect(try await api.cancel(target, key: key).status == .notFound, "DELETE \(target)")
            }
            #expect(try await api.status(id) == "pending", "the stranger's DELETE changed nothing")
        }
    }

    @Test func readingTakesASendOrLogKeyAndCancellingASendKey() async throws {
        try await DispatchAPI.with { api in
            let id = try await api.update()
            let workspace = api.tenant.workspace
            let reader = try await api.database.makeKey(in: workspace, permissions: [.messageActivityLogRead]).secret
            let starter = try await api.database.makeKey(in: workspace, permissions: [.liveActivityStart]).secret
            let channels = try await api.database.makeKey(in: workspace, permissions: [.channelsManage]).secret
            #expect(try await api.get(id, key: reader).status == .ok)
            #expect(try await api.get(id, key: starter).status == .ok)
            let refused = try await api.get(id, key: channels)
            #expect(refused.status == .forbidden)
            #expect(refused.errors.first?.contains("messages.live_activity.update") == true)
            #expect(try await api.cancel(id, key: reader).status == .forbidden, "a log reader cannot stop sends")
            #expect(try await api.cancel(id, key: starter).status == .ok)
            let anonymous = try await api.client.execute(
                uri: "/messages/live_activity/dispatches/\(id)", method: .get, headers: [:], body: nil)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func cancellingAScheduledOrPendingDispatchEndsItAtOnce() async throws {
        try await DispatchAPI.with { api in
            let scheduled = try await api.update(sendAt: Date().addingTimeInterval(600).iso8601)
            let pending = try await api.update("match-2")
            for id in [scheduled, pending] {
                let response = try await api.cancel(id)
                #expect(response.status == .ok, "\(response.text)")
                let json = try response.json
                #expect(json["status"]?.stringValue == "cancelled")
                #expect(json["completed_at"]?.stringValue != nil)
                #expect(json["dispatch_id"]?.stringValue == id)
            }
            let claimed = try await PostgresDeliveryQueue(pool: api.database.pool).claim(worker: "w", limit: 10, lease: .seconds(30))
            #expect(claimed.isEmpty, "a cancelled dispatch is never claimed")
        }
    }

    @Test func aFinishedDispatchCannotBeCancelled() async throws {
        try await DispatchAPI.with { api in
            let done = try await api.update("a")
            let failed = try await api.update("b")
            try await api.database.pool.query("UPDATE dispatches SET status = 'done', completed_at = now() WHERE id = $1", [done])
            try await api.database.pool.query("UPDATE dispatches SET status = 'failed', completed_at = now() WHERE id = $1", [failed])
            let superseded = try await api.update("c")
            try await api.update("c")
            let cancelled = try await api.update("d")
            #expect(try await api.cancel(cancelled).status == .ok)
            for (id, status) in [(done, "done"), (failed, "failed"), (superseded, "superseded"), (cancelled, "cancelled")] {
                let response = try await api.cancel(id)
                #expect(response.status == .conflict, "\(status)")
                #expect(try response.json["message"]?.stringValue == "Dispatch already \(status)")
                #expect(try await api.status(id) == status, "unchanged")
            }
        }
    }

    /// A dispatch being delivered is marked: the resource already says `cancelled`, and the worker that
    /// holds it is told at its next record (the delivery tests show it stop).
    @Test func cancellingADispatchBeingDeliveredMarksItForItsWorker() async throws {
        try await DispatchAPI.with { api in
            let id = try await api.update()
            let queue = PostgresDeliveryQueue(pool: api.database.pool)
            let claimed = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30)).first)
            #expect(try await api.status(id) == "delivering")
            let response = try await api.cancel(id)
            #expect(response.status == .ok)
            #expect(try response.json["status"]?.stringValue == "cancelled")
            #expect(try response.json["completed_at"]?.isNull == true, "it has not stopped yet")
            #expect(try await queue.stopRequests(among: [claimed.dispatch.id]) == [claimed.dispatch.id: .cancelled])
            #expect(
                try await queue.recordProgress(claimed, worker: "w", progress: .init(cursor: 10, sent: 10), lease: .seconds(30))
                    == .recorded(stop: .cancelled))
            #expect(try await queue.settle(DispatchSettlement(claimed, .finished(.cancelled)), worker: "w"))
            let json = try await api.get(id).json
            #expect(json["status"]?.stringValue == "cancelled")
            #expect(json["devices"]?["sent"]?.numberLexeme == "10", "what it sent is counted")
            #expect(try await api.cancel(id).status == .conflict)
        }
    }

    static func tomorrow() -> String {
        String(Date().addingTimeInterval(86_400).iso8601.prefix(10))
    }
}
