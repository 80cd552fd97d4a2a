import APNsCore
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import TestSupport
import Testing

@Suite("A request id in every log line of a request", .requiresPostgres)
struct RequestIDTests {
    @Test func everyLineOfARequestCarriesTheIdTheResponseNames() async throws {
        try await TestDatabase.with { database in
            let logs = InMemoryLogHandler()
            var logger = Logger(label: "test") { _ in logs }
            logger.logLevel = .trace
            let workspace = try await database.makeWorkspace()
            let (key, secret) = try await database.makeKey(in: workspace, permissions: [.liveActivityStart])
            try await TestGateway.app(database, logger: logger).test(.router) { client in
                // A denied request logs from the auth middleware and from the access log.
                let response = try await client.execute(
                    uri: ProbeRoutes.path(for: .liveActivityUpdate), method: .get, headers: .bearer(secret))
                #expect(response.status == .forbidden)
                let requestID = try #require(response.requestID)
                let lines = logs.entries
                #expect(lines.count >= 2)
                for line in lines {
                    #expect(line.metadata["hb.request.id"]?.description == requestID, "\(line.message)")
                }
                #expect(
                    lines.contains {
                        $0.message == "API key lacks permission" && $0.metadata["api_key_id"]?.description == key.id.uuidString
                    })
                let access = try #require(lines.first { $0.message == "request" })
                #expect(access.metadata["status"]?.description == "403")
                // The key itself is never logged.
                #expect(!lines.contains { "\($0.message) \($0.metadata)".contains(secret) })
            }
        }
    }

    /// An operator greps the logs for the `dispatch_id` a 201 gave: it is written the same way there.
    @Test func theAcceptedLineNamesTheDispatchAsTheAnswerDoes() async throws {
        try await TestDatabase.with { database in
            let logs = InMemoryLogHandler()
            var logger = Logger(label: "test") { _ in logs }
            logger.logLevel = .info
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database, logger: logger).test(.router) { client in
                let response = try await client.execute(
                    uri: "/messages/live_activity/update", method: .post,
                    headers: [.authorization: "Bearer \(tenant.secret)", .contentType: "application/json"],
                    body: ByteBuffer(
                        string: #"{"app_id":"\#(tenant.app.identifier)","activity_id":"m","content_state":{},"end_activity":false}"#))
                #expect(response.status == .created)
                let body = try JSONValue.parse(String(buffer: response.body))
                let dispatchID = try #require(body["dispatch_id"]?.stringValue)
                #expect(dispatchID == dispatchID.lowercased())
                let accepted = try #require(logs.entries.first { $0.message == "live activity message accepted" })
                #expect(accepted.metadata["dispatch_id"]?.description == dispatchID)
            }
        }
    }

    @Test func eachRequestGetsItsOwnId() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let first = try await client.execute(uri: "/healthz", method: .get)
                let second = try await client.execute(uri: "/healthz", method: .get)
                #expect(first.requestID != nil)
                #expect(first.requestID != second.requestID)
            }
        }
    }
}
