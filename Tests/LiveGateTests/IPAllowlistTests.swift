import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("IP allowlists over real sockets, IPv4 and IPv6", .requiresPostgres)
struct IPAllowlistTests {
    func status(_ baseURL: String, _ secret: String, headers: [String: String] = [:]) async throws -> CurlHTTPClient.Response {
        try await CurlHTTPClient.request(
            "GET", "\(baseURL)/api_keys/current", headers: headers.merging(["Authorization": "Bearer \(secret)"]) { $1 })
    }

    @Test func ipv4CIDRAllowsInsideAndDeniesOutside() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let inside = try await database.makeKey(in: workspace, allowing: ["127.0.0.0/8"]).secret
            let exact = try await database.makeKey(in: workspace, allowing: ["127.0.0.1"]).secret
            let outside = try await database.makeKey(in: workspace, allowing: ["10.0.0.0/8", "192.168.1.7"]).secret
            try await LiveGatewayServer.with(database: database, host: "127.0.0.1") { (baseURL: String) async throws -> Void in
                #expect(try await status(baseURL, inside).status == 200)
                #expect(try await status(baseURL, exact).status == 200)
                let denied = try await status(baseURL, outside)
                #expect(denied.status == 403)
                #expect(denied.text == #"{"errors":["this API key may not be used from this IP address"],"message":"Access Denied"}"#)
            }
        }
    }

    @Test func ipv6CIDRAllowsInsideAndDeniesOutside() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let loopback = try await database.makeKey(in: workspace, allowing: ["::1/128"]).secret
            let wide = try await database.makeKey(in: workspace, allowing: ["::/64"]).secret
            let documentation = try await database.makeKey(in: workspace, allowing: ["2001:db8::/32"]).secret
            // An IPv4 allowlist does not admit an IPv6 peer.
            let v4Only = try await database.makeKey(in: workspace, allowing: ["127.0.0.0/8"]).secret
            try await LiveGatewayServer.with(database: database, host: "::1") { (baseURL: String) async throws -> Void in
                #expect(try await status(baseURL, loopback).status == 200)
                #expect(try await status(baseURL, wide).status == 200)
                #expect(try await status(baseURL, documentation).status == 403)
                #expect(try await status(baseURL, v4Only).status == 403)
            }
        }
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxies() async throws {
        try await TestDatabase.with { database in
            let workspace = try await database.makeWorkspace()
            let office = try await database.makeKey(in: workspace, allowing: ["2001:db8:1::/48", "203.0.113.0/24"]).secret
            let forged = ["X-Forwarded-For": "203.0.113.9"]

            // No trusted proxy: the header is ignored and the loopback peer is outside the allowlist.
            try await LiveGatewayServer.with(database: database) { (baseURL: String) async throws -> Void in
                #expect(try await status(baseURL, office, headers: forged).status == 403)
            }

            // Behind a trusted proxy on loopback: the right-most untrusted hop is the client.
            let trusted = GatewayConfiguration(trustedProxies: [IPNetwork("127.0.0.0/8")!])
            try await LiveGatewayServer.with(database: database, configuration: trusted) { (baseURL: String) async throws -> Void in
                #expect(try await status(baseURL, office, headers: forged).status == 200)
                #expect(try await status(baseURL, office, headers: ["X-Forwarded-For": "2001:db8:1:2::5"]).status == 200)
                #expect(try await status(baseURL, office, headers: ["X-Forwarded-For": "2001:db8:2::5"]).status == 403)
                // A client cannot smuggle an allowed address in front of its real one.
                #expect(try await status(baseURL, office, headers: ["X-Forwarded-For": "203.0.113.9, 198.51.100.4"]).status == 403)
            }
        }
    }
}
