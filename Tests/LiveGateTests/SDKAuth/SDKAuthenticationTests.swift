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

@Suite("SDK authentication on POST /push_token_tag: JWTs from the customer's server", .requiresPostgres)
struct SDKAuthenticationTests {
    static let token = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1"

    static func register(_ tenant: Tenant, externalID: String? = "fan-7", token: String? = SDKAuthenticationTests.token) -> String {
        let user = externalID.map { #""external_id":"\#($0)","# } ?? ""
        let pushToken = token.map { #""\#($0)""# } ?? "null"
        return #"{"app_id":"\#(tenant.app.identifier)","device_id":"iphone-1",\#(user)"tag":"game-42","push_token":\#(pushToken)}"#
    }

    /// A tenant whose app has `publicKeys` (file names in the key folder) and enforces them or not, and
    /// a gateway over its database.
    static func withApp(
        publicKeys: [String] = ["ec.pub.pem"], enforced: Bool = true,
        _ body: @escaping @Sendable (Tenant, TestDatabase, SDKAuthKeyFiles, any TestClientProtocol) async throws -> Void
    ) async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            let keys = try publicKeys.map { try SDKAuthPublicKey(pem: try files.text($0)) }
            let app = try #require(
                try await database.tenancy.setSDKAuthentication(appIdentifier: tenant.app.identifier, keys: keys, enforced: enforced))
            #expect(app.sdkAuthentication.enforced == enforced)
            try await TestGateway.app(database).test(.router) { client in try await body(tenant, database, files, client) }
        }
    }

    static func post(_ client: any TestClientProtocol, _ body: String, jwt: String?) async throws -> TestResponse {
        try await client.post("/push_token_tag", body, key: jwt)
    }

    static func storedUsers(_ database: TestDatabase) async throws -> [String] {
        try await database.pool.query(
            "SELECT u.external_id FROM activity_tokens t JOIN users u ON u.id = t.user_id ORDER BY 1"
        ).map { try $0.require("external_id", as: String.self) }
    }

    @Test func anES256TokenForThatUserRegistersTheDevice() async throws {
        try await Self.withApp { tenant, database, files, client async throws in
            let jwt = try await JWTSigner.sign(.init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-7")))
            let response = try await Self.post(client, Self.register(tenant), jwt: jwt)
            #expect(response.status == .created, "\(response.text)")
            #expect(response.text == #"{"message":"success"}"#)
            #expect(try await Self.storedUsers(database) == ["fan-7"])
        }
    }

    @Test func duringARotationEitherKeyWorksAndRS256ChecksWithTheRSAKey() async throws {
        try await Self.withApp(publicKeys: ["ec.pub.pem", "rsa.pub.pem"]) { tenant, database, files, client async throws in
            let tokens = try await JWTSigner.sign([
                .init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-7")),
                .init(key: files.path("rsa.pem"), algorithm: "RS256", claims: JWTSigner.claims("fan-8"), headers: ["kid": "next"]),
            ])
            let first = try await Self.post(client, Self.register(tenant), jwt: tokens[0])
            #expect(first.status == .created, "\(first.text)")
            let second = try await Self.post(
                client, Self.register(tenant, externalID: "fan-8").replacingOccurrences(of: "iphone-1", with: "ipad-2"), jwt: tokens[1])
            #expect(second.status == .created, "\(second.text)")
            #expect(try await Self.storedUsers(database) == ["fan-7", "fan-8"])
        }
    }

    @Test func withoutATokenItIs401AndNothingIsStored() async throws {
        try await Self.withApp { tenant, database, _, client async throws in
            for authorization in [nil, "Bearer ", "Basic Zm9vOmJhcg=="] {
                var headers: HTTPFields = [:]
                if let authorization { headers[.authorization] = authorization }
                let response = try await client.post("/push_token_tag", Self.register(tenant), key: nil, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="push_token_tag""#)
                try expectJSON(
                    response.json,
                    equals: #"""
                        {"message":"Missing SDK authentication token","errors":["this app requires SDK authentication for calls that name an external_id: send 'Authorization: Bearer <JWT>' signed by your server for that user"]}
                        """#)
            }
            // A removal that names the user needs the token too.
            let removal = try await client.post("/push_token_tag", Self.register(tenant, token: nil), key: nil)
            #expect(removal.status == .unauthorized)
            #expect(try await database.count("SELECT count(*) FROM users") == 0)
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 0)
        }
    }

    /// (token to make, the reason the 401 gives). `now` is when the test runs.
    static func badTokens(_ files: SDKAuthKeyFiles, now: Date) -> [(JWTSigner.Token, String)] {
        let seconds = Int(now.timeIntervalSince1970)
        let ec = files.path("ec.pem")
        return [
            (
                .init(key: ec, algorithm: "ES256", claims: JWTSigner.claims("fan-7", expiresIn: -120, now: now)),
                "the token expired at \(Date(timeIntervalSince1970: TimeInterval(seconds - 120)).iso8601)"
            ),
            (
                .init(key: ec, algorithm: "ES256", claims: ["sub": "fan-7", "iat": seconds]),
                "the token has no exp: SDK authentication tokens must expire"
            ),
            (
                .init(key: ec, algorithm: "ES256", claims: ["sub": "fan-7", "exp": "tomorrow"]),
                "the token's exp must be a number of seconds since 1970"
            ),
            (
                .init(key: ec, algorithm: "ES256", claims: ["sub": "fan-7", "exp": seconds + 600, "nbf": seconds + 300]),
                "the token is not valid before \(Date(timeIntervalSince1970: TimeInterval(seconds + 300)).iso8601), later than now"
            ),
            (
                .init(key: ec, algorithm: "ES256", claims: ["sub": "fan-7", "exp": seconds + 900, "iat": seconds + 600]),
                "the token is issued at \(Date(timeIntervalSince1970: TimeInterval(seconds + 600)).iso8601), later than now"
            ),
            (.init(key: ec, algorithm: "ES256", claims: ["exp": seconds + 300]), "the token has no sub (the user's external_id)"),
            // Signed by a key the app does not hold.
            (
                .init(key: files.path("ec2.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-7", now: now)),
                "the token's signature does not match this app's public keys"
            ),
            // Forgeries a careless verifier would take.
            (
                .init(key: ec, algorithm: "none", claims: JWTSigner.claims("fan-7", now: now)),
                "alg 'none' is not accepted: sign with ES256 or RS256"
            ),
            (
                .init(key: ec, algorithm: "HS256-public", claims: JWTSigner.claims("fan-7", now: now)),
                "alg 'HS256' is not accepted: sign with ES256 or RS256"
            ),
            (
                .init(key: files.path("p384.pem"), algorithm: "ES384", claims: JWTSigner.claims("fan-7", now: now)),
                "alg 'ES384' is not accepted: sign with ES256 or RS256"
            ),
            // A good algorithm for which the app has no key.
            (
                .init(key: files.path("rsa.pem"), algorithm: "RS256", claims: JWTSigner.claims("fan-7", now: now)),
                "the token is signed with RS256, but this app's keys check ES256"
            ),
            (
                .init(key: ec, algorithm: "ES256", claims: JWTSigner.claims("fan-7", now: now), headers: ["crit": "exp"]),
                "the token is not a valid JWT: its header's crit names extensions this gateway does not support"
            ),
        ]
    }

    @Test func invalidTokensAre401WithTheReason() async throws {
        try await Self.withApp { tenant, database, files, client async throws in
            let cases = Self.badTokens(files, now: Date())
            let tokens = try await JWTSigner.sign(cases.map(\.0))
            for (token, (_, reason)) in zip(tokens, cases) {
                let response = try await Self.post(client, Self.register(tenant), jwt: token)
                #expect(response.status == .unauthorized, "\(reason): \(response.text)")
                #expect(try response.json["message"]?.stringValue == "Invalid SDK authentication token")
                #expect(response.errors == [reason])
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="push_token_tag", error="invalid_token""#)
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 0)
            #expect(try await database.count("SELECT count(*) FROM users") == 0)
        }
    }

    @Test func aTamperedOrMangledTokenIs401() async throws {
        try await Self.withApp(publicKeys: ["ec.pub.pem", "rsa.pub.pem"]) { tenant, database, files, client async throws in
            let tokens = try await JWTSigner.sign([
                .init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-8")),
                .init(key: files.path("rsa.pem"), algorithm: "RS256", claims: JWTSigner.claims("fan-7")),
            ])
            let parts = tokens[0].split(separator: ".").map(String.init)
            // The payload swapped for another user's, the signature kept.
            let otherUser = Base64URL.encode(Array(#"{"sub":"fan-7","exp":\#(Int(Date().timeIntervalSince1970) + 300)}"#.utf8))
            let rsaParts = tokens[1].split(separator: ".").map(String.init)
            let rsaHeaderAsES256 = Base64URL.encode(Array(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
            let mangled: [(String, String)] = [
                ("\(parts[0]).\(otherUser).\(parts[2])", "the token's signature does not match this app's public keys"),
                // An RSA signature relabelled ES256 is checked with the EC key, and fails.
                ("\(rsaHeaderAsES256).\(rsaParts[1]).\(rsaParts[2])", "the token's signature does not match this app's public keys"),
                ("\(parts[0]).\(parts[1]).\(parts[2])=", "the token is not a valid JWT: its signature is not base64url"),
                ("\(parts[0]).\(parts[1])", "the token is not a valid JWT: a JWT is three base64url parts separated by dots"),
                ("not-a-jwt", "the token is not a valid JWT: a JWT is three base64url parts separated by dots"),
                ("e30.e30.\(parts[2])", "the token is not a valid JWT: its header has no alg"),
                (
                    "\(Base64URL.encode(Array(#"{"alg":"ES256","alg":"RS256"}"#.utf8))).\(parts[1]).\(parts[2])",
                    "the token is not a valid JWT: its header names a member twice"
                ),
                (
                    "\(String(repeating: "A", count: 9000)).\(parts[1]).\(parts[2])",
                    "the token is not a valid JWT: it is longer than 8192 bytes"
                ),
            ]
            for (token, reason) in mangled {
                let response = try await Self.post(client, Self.register(tenant), jwt: token)
                #expect(response.status == .unauthorized, "\(reason): \(response.text)")
                #expect(response.errors == [reason])
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 0)
        }
    }

    @Test func aTokenForAnotherUserIs403AndNothingIsStored() async throws {
        try await Self.withApp { tenant, database, files, client async throws in
            // The comparison is exact: case, and the bytes of the text (é precomposed is not e + accent).
            let cases: [(sub: String, externalID: String)] = [("fan-8", "fan-7"), ("FAN-7", "fan-7"), ("caf\u{E9}", "cafe\u{301}")]
            let tokens = try await JWTSigner.sign(
                cases.map { .init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims($0.sub)) })
            for (token, (_, externalID)) in zip(tokens, cases) {
                let response = try await Self.post(client, Self.register(tenant, externalID: externalID), jwt: token)
                #expect(response.status == .forbidden, "\(response.text)")
                try expectJSON(
                    response.json,
                    equals: #"""
                        {"message":"Access Denied","errors":["the SDK authentication token is for another user: its sub is not this call's external_id"]}
                        """#)
            }
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 0)
            #expect(try await database.count("SELECT count(*) FROM users") == 0)
        }
    }

    @Test func tokensWithinTheMinuteOfLeewayAreAccepted() async throws {
        try await Self.withApp { tenant, database, files, client async throws in
            let now = Date()
            let seconds = Int(now.timeIntervalSince1970)
            let tokens = try await JWTSigner.sign([
                // Expired 20 s ago, valid from 20 s ahead: clocks a little apart.
                .init(
                    key: files.path("ec.pem"), algorithm: "ES256",
                    claims: ["sub": "fan-7", "exp": seconds - 20, "nbf": seconds + 20, "iat": seconds + 20])
            ])
            let response = try await Self.post(client, Self.register(tenant), jwt: tokens[0])
            #expect(response.status == .created, "\(response.text)")
            #expect(try await Self.storedUsers(database) == ["fan-7"])
        }
    }

    @Test func callsWithoutAnExternalIDNeedNoToken() async throws {
        try await Self.withApp { tenant, database, _, client async throws in
            let anonymous = try await Self.post(client, Self.register(tenant, externalID: nil), jwt: nil)
            #expect(anonymous.status == .created, "\(anonymous.text)")
            let aliased = #"""
                {"app_id":"\#(tenant.app.identifier)","device_id":"ipad-2","user_alias":{"alias_name":"anon-1","alias_label":"install"},"activity_attributes_type":"MatchAttributes","push_to_start_token":"\#(Self.token)"}
                """#
            // A stray token on such a call is not looked at.
            let withJunk = try await Self.post(client, aliased, jwt: "junk")
            #expect(withJunk.status == .created, "\(withJunk.text)")
            #expect(try await database.count("SELECT count(*) FROM activity_tokens") == 1)
            #expect(try await database.count("SELECT count(*) FROM push_to_start_tokens") == 1)
        }
    }

    @Test func aNullExternalIDNeedsNoTokenAndDetachesTheDevice() async throws {
        try await Self.withApp { tenant, database, files, client async throws in
            let jwt = try await JWTSigner.sign(.init(key: files.path("ec.pem"), algorithm: "ES256", claims: JWTSigner.claims("fan-7")))
            #expect(try await Self.post(client, Self.register(tenant), jwt: jwt).status == .created)
            #expect(try await Self.storedUsers(database) == ["fan-7"])
            // The user signed out: the SDK names no one, so there is no one to hold a token for.
            let signedOut = Self.register(tenant, externalID: nil).replacingOccurrences(
                of: #""device_id":"iphone-1","#, with: #""device_id":"iphone-1","external_id":null,"#)
            let response = try await Self.post(client, signedOut, jwt: nil)
            #expect(response.status == .created, "\(response.text)")
            // A stray token on such a call is not looked at either.
            #expect(try await Self.post(client, signedOut, jwt: "junk").status == .created)
            #expect(try await database.count("SELECT count(*) FROM activity_tokens WHERE user_id IS NULL") == 1)
            #expect(try await Self.storedUsers(database) == [])
        }
    }

    @Test func anAppThatDoesNotEnforceTakesRegistrationsWithoutAToken() async throws {
        try await Self.withApp(enforced: false) { tenant, database, _, client async throws in
            #expect(try await Self.post(client, Self.register(tenant), jwt: nil).status == .created)
            // Not enforced, a token is not checked at all (as at Braze, where enforcement is the switch).
            #expect(try await Self.post(client, Self.register(tenant, externalID: "fan-8"), jwt: "junk").status == .created)
            #expect(try await Self.storedUsers(database) == ["fan-8"])
        }
    }

    @Test func anAppWithoutSDKAuthenticationIsUnchanged() async throws {
        try await TestDatabase.with { database in
            let tenant = try await database.makeTenant()
            #expect(tenant.app.sdkAuthentication == .off)
            try await TestGateway.app(database).test(.router) { client async throws in
                #expect(try await Self.post(client, Self.register(tenant), jwt: nil).status == .created)
            }
        }
    }
}
