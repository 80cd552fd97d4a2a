import APNsCore
import APNsSimulator
import Foundation
import TestSupport
import Testing

@Suite("livegate provider-token")
struct ProviderTokenCommandTests {
    @Test func printsAnES256TokenThatTheKeysPublicHalfVerifies() async throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID()).p8")
        try CLITests.demoPrivateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let before = Int(Date().timeIntervalSince1970)

        let result = try await LiveGateBinary.run(
            ["provider-token", "--team-id", "TEAM123456", "--key-id", "KEY1234567", "--key-file", keyFile.path], databaseURL: "")

        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.lastLine.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "not a compact JWT: \(result.lastLine)")
        let header = try JSONValue.parse(try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue.parse(try #require(Base64URL.decode(parts[1])))
        #expect(header == .object(JSONObject([("alg", .string("ES256")), ("kid", .string("KEY1234567"))])))
        #expect(claims["iss"] == .string("TEAM123456"))
        let issuedAt = try #require(claims["iat"]?.numberLexeme.flatMap { Int($0) })
        #expect((before...before + 60).contains(issuedAt))
        let publicKey = try P256PublicKey(publicOrPrivatePEM: CLITests.demoPrivateKeyPEM)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(publicKey.verify(signature: signature, of: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func aFileThatIsNotAKeyIsAClearError() async throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID()).p8")
        try "not a key".write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }

        let result = try await LiveGateBinary.run(
            ["provider-token", "--team-id", "TEAM123456", "--key-id", "KEY1234567", "--key-file", keyFile.path], databaseURL: "")

        #expect(result.status != 0)
        #expect(result.stderr.contains("not a PKCS#8 PEM P-256 private key"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
