import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("docs/operating/sdk-authentication.md: its server-side example signs tokens the gateway takes")
struct SDKAuthDocumentationTests {
    static let document = Subprocess.repositoryRoot.appendingPathComponent("docs/operating/sdk-authentication.md")

    /// The first fenced block in `language`.
    static func codeBlock(_ language: String) throws -> String {
        let text = try String(contentsOf: document, encoding: .utf8)
        let start = try #require(text.range(of: "```\(language)\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func thePythonExampleMakesATokenTheGatewayAccepts() async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            atPath: files.path("ec.pem"), toPath: folder.appendingPathComponent("sdk-auth-private.pem").path)
        let program = try Self.codeBlock("python") + "\nprint(sdk_auth_token(\"fan-7\"))\n"
        let run = try await Subprocess.run("/bin/bash", ["-c", "cd \"$1\" && python3 -c \"$2\"", "doc", folder.path, program])
        #expect(run.status == 0, "\(run.stderr)")
        let jwt = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        try await SDKAuthenticationTests.withApp { tenant, database, _, client async throws in
            let response = try await SDKAuthenticationTests.post(client, SDKAuthenticationTests.register(tenant), jwt: jwt)
            #expect(response.status == .created, "\(response.text)")
            #expect(try await SDKAuthenticationTests.storedUsers(database) == ["fan-7"])
        }
    }
}
