import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("APNs sender", .requiresPostgres)
struct APNsSenderTests {
    static func push() -> LiveActivityPush {
        LiveActivityPush(
            deviceToken: PushToken(hex: String(repeating: "ab", count: 32))!,
            payload: Array(#"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"n":1}}}"#.utf8),
            priority: .immediate, expiresAt: Date(timeIntervalSince1970: 1_685_995_200))
    }

    @Test func aKeyThatCannotSignIsReportedNotSent() async throws {
        let rsa = try await TestKeyPair.make("-algorithm RSA -pkeyopt rsa_keygen_bits:2048")
        defer { rsa.remove() }
        try await TestDatabase.with { database in
            let app = try await database.makeApp(
                in: try await database.makeWorkspace(), endpoint: APNsEndpoint(rawValue: "http://127.0.0.1:1")!,
                credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: rsa.privatePEM))
            let sender = APNsSender()
            guard case .unsignable(let error) = await sender.send(Self.push(), app: app) else {
                Issue.record("an RSA key was used to sign")
                return
            }
            #expect(error.code == .notP256)
            #expect(!"\(error)".contains("PRIVATE KEY"))
            await sender.shutdown()
        }
    }

    /// Over TLS to a real HTTP/2 server (nghttpd echoing the body): the push reaches
    /// `/3/device/<token>` with its payload; the headers are checked by the APNs simulator's tests.
    @Test func aPushIsPostedOverTLSAndAnsweredDelivered() async throws {
        let keys = try await TestKeyPair.make()
        let certificate = try await TestKeyPair.Certificate.make()
        defer {
            keys.remove()
            certificate.remove()
        }
        try await EchoServer.with(tls: certificate) { port in
            try await TestDatabase.with { database in
                let app = try await database.makeApp(
                    in: try await database.makeWorkspace(), endpoint: APNsEndpoint(rawValue: "https://127.0.0.1:\(port)")!,
                    credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keys.privatePEM))
                let sender = APNsSender(transport: .init(trustedCAFile: certificate.certificateFile))
                for _ in 0..<3 {
                    #expect(await sender.send(Self.push(), app: app) == .answered(APNsResponse(status: 200, apnsID: nil)))
                }
                await sender.shutdown()
            }
        }
    }

    @Test func noAnswerIsATransportFailure() async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        try await TestDatabase.with { database in
            let app = try await database.makeApp(
                in: try await database.makeWorkspace(),
                endpoint: APNsEndpoint(rawValue: "http://127.0.0.1:\(LiveGateBinary.freePort())")!,
                credentials: APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keys.privatePEM))
            let sender = APNsSender()
            guard case .unreachable(let error) = await sender.send(Self.push(), app: app) else {
                Issue.record("a closed port answered")
                return
            }
            #expect(error.code == .connectFailed)
            await sender.shutdown()
        }
    }
}
