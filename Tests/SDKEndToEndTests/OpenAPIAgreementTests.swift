import Foundation
import Testing

@testable import LiveGateKit

/// What the SDK sends is what openapi.yaml says the gateway takes: every kind of report's body is
/// validated against the route's request schema (JSON Schema 2020-12, as OpenAPI 3.1 uses it).
@Suite("LiveGateKit's requests against openapi.yaml")
struct OpenAPIAgreementTests {
    static let reports: [(schema: String, report: Report)] = [
        (
            "PushTokenTag",
            Report(id: UUID(), kind: .updateToken, subject: "order-1", token: String(repeating: "ab", count: 32), externalID: "fan-1")
        ),
        ("PushTokenTag", Report(id: UUID(), kind: .updateToken, subject: "order-1", token: nil)),
        (
            "PushTokenTag",
            Report(
                id: UUID(), kind: .updateToken, subject: "order-1", token: String(repeating: "ef", count: 32),
                attributesType: "OrderAttributes")
        ),
        (
            "PushTokenTag",
            Report(id: UUID(), kind: .pushToStartToken, subject: "OrderAttributes", token: String(repeating: "cd", count: 32))
        ),
        ("PushTokenTag", Report(id: UUID(), kind: .pushToStartToken, subject: "OrderAttributes", token: nil, externalID: "fan-1")),
        (
            "DeviceState",
            Report(
                id: UUID(), kind: .state, subject: "order-1", state: .active, channelID: "dHN0LWNoYW5uZWw=", reportedAt: Date(),
                externalID: "fan-1")
        ),
        ("DeviceState", Report(id: UUID(), kind: .state, subject: "order-1", state: .dismissed, reportedAt: Date())),
        (
            "DeviceState",
            Report(id: UUID(), kind: .state, subject: "order-1", state: .active, reportedAt: Date(), frequentPushesEnabled: true)
        ),
    ]

    @Test func everyReportsBodyMatchesItsRoutesSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livegatekit-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var cases: [[String: Any]] = []
        for (schema, report) in Self.reports {
            let body = try report.body(appID: "3f0c5f55-0c8e-4c02-9a4d-4d1b0b7a1e11", deviceID: "9B2C-iphone")
            cases.append(["schema": schema, "body": try JSONSerialization.jsonObject(with: body), "route": report.route])
        }
        let file = folder.appendingPathComponent("cases.json")
        try JSONSerialization.data(withJSONObject: cases).write(to: file)
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let script = """
            import json, sys, yaml, jsonschema
            spec = yaml.safe_load(open(sys.argv[1]))
            failures = []
            for case in json.load(open(sys.argv[2])):
                route = spec["paths"][case["route"]]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                assert route == "#/components/schemas/" + case["schema"], route
                schema = {"$ref": route, "components": spec["components"]}
                for error in jsonschema.Draft202012Validator(schema).iter_errors(case["body"]):
                    failures.append(case["route"] + ": " + error.message)
            print("\\n".join(failures))
            sys.exit(1 if failures else 0)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, spec.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
