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
import NIOCore
import NIOFoundationEssentialsCompat
import PostgresClient
import TestSupport
import Testing

@Suite("Every error has Braze's JSON body", .requiresPostgres)
struct ErrorBodyTests {
    @Test func unknownPathIs404() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: "/messages/nope", method: .get)
                #expect(response.status == .notFound)
                #expect(response.text == #"{"message":"Not found: no endpoint at /messages/nope"}"#)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(uri: "/healthz", method: .delete)
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
                #expect(response.text == #"{"message":"Method DELETE is not allowed here"}"#)
            }
        }
    }

    /// A route with a parameter counts too: its path is served, only not with this method. (Bodies
    /// are JSON, or the request limits answer 415 before any route is looked at.)
    @Test func wrongMethodOnAParameterizedRouteIs405WithAllow() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                for method in [HTTPRequest.Method.post, .delete, .put, .patch] {
                    let response = try await client.execute(
                        uri: "/dashboard/assets/x.js", method: method, headers: .json, body: ByteBuffer(string: "{}"))
                    #expect(response.status == .methodNotAllowed, "\(method)")
                    #expect(response.headers[.allow] == "GET", "\(method)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(method)")
                    #expect(response.text == #"{"message":"Method \#(method.rawValue) is not allowed here"}"#)
                }
                // The served method finding no file is still the 404 it was.
                let missing = try await client.execute(uri: "/dashboard/assets/x.js", method: .get)
                #expect(missing.status == .notFound)
                #expect(missing.text == #"{"message":"Not found: no endpoint at /dashboard/assets/x.js"}"#)
            }
        }
    }

    /// The method is judged before the body: a PUT without a body, or with a body that is not JSON or
    /// is over the limit, on a route that does not take PUT is a 405, not a 415 or 413.
    @Test func anUnservedMethodIs405WhateverItsBody() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let cases: [(uri: String, allow: String)] = [
                    ("/api_keys/current", "GET"), ("/healthz", "GET"), ("/dashboard/assets/dashboard.js", "GET"),
                    ("/messages/live_activity/update", "POST"), ("/live_activity/channels", "GET, POST"),
                    ("/messages/live_activity/dispatches/0b7e3f1c-9a55-4b7e-8d0e-6f4f2b8c1a90", "DELETE, GET"),
                ]
                for (uri, allow) in cases {
                    for headers: HTTPFields in [[:], [.contentType: "text/plain"], [.contentLength: "999999999"]] {
                        let response = try await client.execute(uri: uri, method: .put, headers: headers)
                        #expect(response.status == .methodNotAllowed, "PUT \(uri) \(headers)")
                        #expect(response.headers[.allow] == allow, "PUT \(uri)")
                        #expect(response.text == #"{"message":"Method PUT is not allowed here"}"#)
                    }
                }
                // A path nobody serves stays a 404, body or not.
                let unknown = try await client.execute(uri: "/nowhere", method: .put, headers: [.contentType: "text/plain"])
                #expect(unknown.status == .notFound)
            }
        }
    }

    @Test func malformedJSONIs400() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(
                    uri: "/probe/echo", method: .post, headers: .json, body: ByteBuffer(string: #"{"name": "a", "count": "#))
                #expect(response.status == .badRequest)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect((json["message"] as? String)?.isEmpty == false)
                #expect(json.keys.sorted() == ["message"])
            }
        }
    }

    @Test func wellFormedJSONReachesTheHandler() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let response = try await client.execute(
                    uri: "/probe/echo", method: .post, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ByteBuffer(string: #"{"name":"a","count":2}"#))
                #expect(response.status == .ok)
                #expect(response.text == #"{"count":2,"name":"a"}"# || response.text == #"{"name":"a","count":2}"#)
            }
        }
    }

    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"])
    func wrongContentTypeIs415(contentType: String?) async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                var headers = HTTPFields()
                if let contentType { headers[.contentType] = contentType }
                let response = try await client.execute(
                    uri: "/probe/echo", method: .post, headers: headers, body: ByteBuffer(string: #"{"name":"a","count":1}"#))
                #expect(response.status == .unsupportedMediaType)
                #expect(
                    response.text
                        == #"{"errors":["Content-Type must be application/json"],"message":"Unsupported content type: send the body as JSON"}"#
                )
            }
        }
    }

    @Test func oversizedBodyIs413() async throws {
        try await TestDatabase.with { database in
            let configuration = GatewayConfiguration(maxRequestBodyBytes: 2048)
            let big = #"{"name":""# + String(repeating: "x", count: 4096) + #"","count":1}"#
            try await TestGateway.app(database, configuration: configuration).test(.router) { client in
                let response = try await client.execute(uri: "/probe/echo", method: .post, headers: .json, body: ByteBuffer(string: big))
                #expect(response.status == .contentTooLarge)
                #expect(response.text == #"{"message":"Request body is larger than 2048 bytes"}"#)
            }
        }
    }

    @Test func oversizedBodyWithoutContentLengthIs413() async throws {
        // Over a real socket with chunked transfer encoding, the limit is enforced on the bytes read.
        try await TestDatabase.with { database in
            let configuration = GatewayConfiguration(maxRequestBodyBytes: 2048)
            let app = TestGateway.app(database, configuration: configuration)
            try await app.test(.live) { client in
                let big = #"{"name":""# + String(repeating: "x", count: 8192) + #"","count":1}"#
                let response = try await client.execute(
                    uri: "/probe/echo", method: .post, headers: [.contentType: "application/json", .transferEncoding: "chunked"],
                    body: ByteBuffer(string: big))
                #expect(response.status == .contentTooLarge)
                #expect(response.text == #"{"message":"Request body is larger than 2048 bytes"}"#)
            }
        }
    }

    @Test func unexpectedFailureIs500WithoutItsCause() async throws {
        try await TestDatabase.with { database in
            let logs = InMemoryLogHandler()
            var logger = Logger(label: "test") { _ in logs }
            logger.logLevel = .trace
            try await TestGateway.app(database, logger: logger).test(.router) { client in
                let response = try await client.execute(uri: "/probe/crash", method: .get)
                #expect(response.status == .internalServerError)
                #expect(response.text == #"{"message":"Internal server error"}"#)
                #expect(!response.text.contains(ProbeRoutes.crashDetail))
                // The cause is logged for the operator, with the request's id.
                let logged = logs.entries.filter { $0.level == .error }
                #expect(logged.count == 1)
                #expect(logged.first?.metadata["hb.request.id"]?.description == response.requestID)
            }
        }
    }

    /// No PostgreSQL to reach: every call that needs it is a 503 that says when to come back, not a 500.
    @Test func databaseOutOfReachIs503WithRetryAfter() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(connectionString: "host=127.0.0.1 port=1 user=nobody dbname=none", connectTimeoutSeconds: 1))
        let app = buildApplication(configuration: .init(), dependencies: .postgres(pool: pool), logger: .quiet)
        let body = #"{"errors":["PostgreSQL did not answer"],"message":"Database unavailable: retry after 2 seconds"}"#
        try await app.test(.router) { client in
            let calls: [(String, HTTPFields, String)] = [
                (
                    "/messages/live_activity/update", .bearer("lg_" + String(repeating: "a", count: 40)),
                    #"{"app_id":"a","activity_id":"x","content_state":{}}"#
                ),
                ("/push_token_tag", [:], #"{"app_id":"a","device_id":"d","tag":"x","push_token":"abcd"}"#),
                ("/healthz", [:], ""),
            ]
            for (path, headers, json) in calls {
                let response = try await client.execute(
                    uri: path, method: json.isEmpty ? .get : .post, headers: headers.merging(.json),
                    body: json.isEmpty ? nil : ByteBuffer(string: json))
                #expect(response.status == .serviceUnavailable, "\(path)")
                #expect(response.headers[.retryAfter] == "2", "\(path)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(path)")
                #expect(response.text == body, "\(path)")
            }
        }
        await pool.close()
    }
}
