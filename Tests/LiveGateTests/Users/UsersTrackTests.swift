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

extension TestDatabase {
    /// A user's stored attributes, by name: kind and value as text.
    func attributes(of externalID: String) async throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try await pool.query(
            """
            SELECT a.name, a.kind || ':' || coalesce(a.string_value, a.number_value::text, a.boolean_value::text,
                   array_to_string(a.array_value, ','), '') || coalesce('@' || extract(epoch FROM a.time_value)::bigint, '') AS v
            FROM user_attributes a JOIN users u ON u.id = a.user_id WHERE u.external_id = $1
            """, [externalID])
        {
            found[try row.require("name")] = try row.require("v")
        }
        return found
    }
}

@Suite("POST /users/track: users' custom attributes, Braze's way", .requiresPostgres)
struct UsersTrackTests {
    static func track(_ client: any TestClientProtocol, _ tenant: Tenant, _ body: String) async throws -> TestResponse {
        try await client.post("/users/track", body, key: tenant.secret)
    }

    @Test func everyTypeIsStoredAsItsTypeAndUnknownUsersAreCreated() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let response = try await Self.track(
                    client, tenant,
                    #"""
                    {"attributes":[{"external_id":"fan-1","team":"A","tickets":2,"ratio":0.5,"notify":true,
                      "teams":["A","B"],"joined":"2024-05-01T10:00:00Z","renewal":{"$time":"2025-01-01T00:00:00Z"}},
                     {"user_alias":{"alias_name":"anon-7","alias_label":"device"},"team":"B","epoch":{"$time":"0000-01-01T00:00:00Z"}}]}
                    """#)
                #expect(response.status == .created, "\(response.text)")
                #expect(response.text == #"{"attributes_processed":2,"message":"success"}"#)
            }
            #expect(
                try await database.attributes(of: "fan-1") == [
                    "team": "string:A", "tickets": "number:2", "ratio": "number:0.5", "notify": "boolean:true",
                    "teams": "array:A,B", "joined": "time:2024-05-01T10:00:00Z@1714557600",
                    "renewal": "time:2025-01-01T00:00:00Z@1735689600",
                ])
            let aliased = try await database.pool.query(
                """
                SELECT a.string_value FROM user_attributes a JOIN user_aliases l ON l.user_id = a.user_id
                WHERE l.alias_label = 'device' AND l.alias_name = 'anon-7' AND a.name = 'team'
                """)
            #expect(try aliased.first?.require("string_value", as: String.self) == "B")
        }
    }

    @Test func nullRemovesAndArraysTakeAddAndRemoveInOrderOnceEach() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                for body in [
                    #"{"attributes":[{"external_id":"fan-2","team":"A","lines":["1","2"],"tickets":3}]}"#,
                    #"{"attributes":[{"external_id":"fan-2","team":null,"lines":{"add":["3","1","4"],"remove":["2"]},"tickets":4}]}"#,
                    #"{"attributes":[{"external_id":"fan-2","fresh":{"add":["x","x"]}}]}"#,
                ] {
                    let response = try await Self.track(client, tenant, body)
                    #expect(response.status == .created, "\(response.text)")
                }
            }
            #expect(try await database.attributes(of: "fan-2") == ["lines": "array:1,3,4", "tickets": "number:4", "fresh": "array:x"])
        }
    }

    @Test func anObjectThatCannotBeAppliedIsNamedInBrazesErrorShapeAndNothingIsStored() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let mixed = try await Self.track(
                    client, tenant,
                    #"{"attributes":[{"team":"A"},{"external_id":"fan-3","team":"C"},{"external_id":"fan-4","profile":{"city":"Lyon"}},{"braze_id":"b1","team":"D"},{"external_id":"fan-5","big":1e301}]}"#
                )
                #expect(mixed.status == .badRequest, "\(mixed.text)")
                let json = try mixed.json
                #expect(json["message"]?.stringValue == "Invalid request: 4 of 5 attributes objects cannot be applied; nothing was stored")
                let errors = try #require(json["errors"]?.arrayValue)
                #expect(errors.compactMap { $0["index"]?.numberLexeme } == ["0", "2", "3", "4"])
                #expect(errors.allSatisfy { $0["input_array"]?.stringValue == "attributes" })
                #expect(errors[1]["type"]?.stringValue?.contains("nested attributes are not supported") == true, "\(errors)")
                #expect(errors[2]["type"]?.stringValue?.contains("'braze_id' is not supported") == true, "\(errors)")
            }
            #expect(try await database.pool.query("SELECT 1 FROM user_attributes").isEmpty)
            #expect(try await database.count("SELECT count(*) FROM users WHERE external_id = 'fan-3'") == 0)
        }
    }

    @Test func eventsPurchasesAndMalformedCallsAre400AndStoreNothing() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            try await TestGateway.app(database).test(.router) { client async throws in
                let events = try await Self.track(
                    client, tenant,
                    #"{"attributes":[{"external_id":"fan-5","team":"A"}],"events":[{"external_id":"fan-5","name":"x","time":"2024-01-01T00:00:00Z"}]}"#
                )
                #expect(events.status == .badRequest)
                #expect(events.text.contains("events are not stored by LiveGate"), "\(events.text)")
                let purchases = try await Self.track(client, tenant, #"{"purchases":[{"external_id":"fan-5"}]}"#)
                #expect(purchases.status == .badRequest)
                #expect(try await Self.track(client, tenant, #"{"attributes":[]}"#).status == .badRequest)
                let tooMany = "[" + Array(repeating: #"{"external_id":"u","a":1}"#, count: 76).joined(separator: ",") + "]"
                let overLimit = try await Self.track(client, tenant, #"{"attributes":\#(tooMany)}"#)
                #expect(overLimit.status == .badRequest)
                #expect(overLimit.text.contains("at most 75 objects"), "\(overLimit.text)")
            }
            #expect(try await database.pool.query("SELECT 1 FROM user_attributes").isEmpty)
        }
    }

    @Test func updateExistingOnlySkipsUnknownUsersAndTheCallTakesItsOwnPermission() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let (_, sender) = try await database.makeKey(in: tenant.workspace, permissions: [.liveActivityUpdate])
            try await TestGateway.app(database).test(.router) { client async throws in
                _ = try await Self.track(client, tenant, #"{"attributes":[{"external_id":"known","team":"A"}]}"#)
                let response = try await Self.track(
                    client, tenant,
                    #"{"attributes":[{"external_id":"known","_update_existing_only":true,"team":"B"},{"external_id":"stranger","_update_existing_only":true,"team":"C"}]}"#
                )
                #expect(response.status == .created)
                #expect(try response.json["attributes_processed"] == .integer(1))
                let refused = try await client.post("/users/track", #"{"attributes":[{"external_id":"x","a":1}]}"#, key: sender)
                #expect(refused.status == .forbidden)
            }
            #expect(try await database.attributes(of: "known") == ["team": "string:B"])
            #expect(try await database.count("SELECT count(*) FROM users WHERE external_id = 'stranger'") == 0)
        }
    }
}
