import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import TestSupport
import Testing

/// Apple's examples are stamped 2023-06-05T08:00:00Z; the gateway's clock is pinned there.
let wwdcTime = Date(timeIntervalSince1970: 1_685_952_000)
let pinnedClock = MessageClock(now: { wwdcTime })

extension TestDatabase {
    /// Registers an update token the way the SDK would, through the repository.
    func registerToken(
        _ tenant: Tenant, tag: String, device: String, token: String, externalID: String? = nil
    ) async throws {
        try await dependencies.tokens.apply(
            TokenRegistration(
                kind: .activity(tag: tag), deviceID: device, token: PushToken(hex: token)!,
                user: .named(externalID: externalID, alias: nil)),
            app: tenant.app)
    }

    /// Update tokens for many devices at once (`device-1`, `device-2`, … in order), written straight into
    /// the table: for fan-outs too large to register one call at a time.
    func insertActivityTokens(_ tokens: [String], app: App, activityID: String) async throws {
        try await pool.query(
            """
            INSERT INTO activity_tokens (app_id, activity_id, device_id, push_token)
            SELECT $1, $2, 'device-' || i, t FROM unnest($3::text[]) WITH ORDINALITY AS d(t, i)
            """, [app.id, activityID, tokens])
    }

    func registerPushToStart(
        _ tenant: Tenant, type: String, device: String, token: String, externalID: String? = nil,
        alias: UserAlias? = nil
    ) async throws {
        try await dependencies.tokens.apply(
            TokenRegistration(
                kind: .pushToStart(attributesType: type), deviceID: device, token: PushToken(hex: token)!,
                user: .named(externalID: externalID, alias: alias)),
            app: tenant.app)
    }

    /// The stored payload of a dispatch, parsed.
    func payload(ofDispatch id: String) async throws -> JSONValue {
        let text: String = try await pool.query("SELECT payload FROM dispatches WHERE id = $1", [id])[0].require("payload")
        return try JSONValue.parse(text)
    }
}

extension TestClientProtocol {
    /// POSTs a JSON body, with the tenant's key unless `key` says otherwise.
    func post(
        _ path: String, _ body: String, key: String?, headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[.authorization] = "Bearer \(key)" }
        headers.append(contentsOf: extra)
        return try await execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}

extension TestResponse {
    /// The parsed JSON body.
    var json: JSONValue {
        get throws { try JSONValue.parse(String(buffer: body)) }
    }

    var dispatchID: String? {
        (try? json)?["dispatch_id"]?.stringValue
    }

    var errors: [String] {
        ((try? json)?["errors"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    var warnings: [String] {
        ((try? json)?["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Whether the body has the key at all: Braze clients treat even an empty `errors` list warily.
    func has(key: String) -> Bool {
        (try? json)?[key] != nil
    }
}

/// Expects `actual` to be the same JSON as the literal `expected`, member order aside.
func expectJSON(_ actual: JSONValue, equals expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let expectedValue = try JSONValue.parse(expected)
    #expect(
        actual.isEquivalent(to: expectedValue),
        "got \(String(decoding: actual.serialized(), as: UTF8.self))", sourceLocation: sourceLocation)
}

/// Posts `body` and expects a 400 whose only problem is `error`, and nothing committed.
func expectRefused(
    _ path: String, _ body: @escaping @Sendable (Tenant) -> String, error: String, useKey: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    try await TestDatabase.with { database in
        let tenant = try await database.makeTenant()
        try await TestGateway.app(database).test(.router) { client async throws in
            let response = try await client.post(path, body(tenant), key: useKey ? tenant.secret : nil)
            #expect(response.status == .badRequest, sourceLocation: sourceLocation)
            #expect(response.errors == [error], sourceLocation: sourceLocation)
            #expect(try response.json["message"]?.stringValue == "Invalid request: \(error)", sourceLocation: sourceLocation)
        }
        for table in ["dispatches", "activity_tokens", "push_to_start_tokens", "users"] {
            #expect(try await database.count("SELECT count(*) FROM \(table)") == 0, "\(table)", sourceLocation: sourceLocation)
        }
    }
}
