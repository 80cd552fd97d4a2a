import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import PostgresClient
import Prometheus
import TestSupport
import Testing

@Suite("openapi.yaml describes exactly what the server serves")
struct OpenAPITests {
    static let document = Subprocess.repositoryRoot.appendingPathComponent("openapi.yaml").path

    @Test func documentIsValidOpenAPI() async throws {
        let output = try await Subprocess.run("/usr/bin/env", ["python3", "-m", "openapi_spec_validator", Self.document])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func pathsAreTheRoutesTheServerRegisters() async throws {
        let listing = """
            import sys, yaml
            document = yaml.safe_load(open(sys.argv[1]))
            methods = {"get", "put", "post", "delete", "patch", "head", "options"}
            for path, operations in document["paths"].items():
                for method in operations:
                    if method in methods:
                        print(method.upper(), path)
            """
        let output = try await Subprocess.run("/usr/bin/env", ["python3", "-c", listing, Self.document])
        #expect(output.status == 0, "\(output.stderr)")
        let documented = output.stdout.split(separator: "\n").map(String.init).sorted()

        // The pool is never used: building the router opens no connection.
        let pool = PostgresConnectionPool(configuration: .init(connectionString: "dbname=unused"))
        // With metrics on the gateway's port, as `serve` runs by default.
        let (_, routes) = buildRouter(
            configuration: .init(metrics: MetricsExposure(registry: PrometheusCollectorRegistry())),
            dependencies: .postgres(pool: pool))
        await pool.close()
        #expect(documented == routes.descriptions)
    }

    /// The document's `DateTime` pattern and the gateway's reader (`ISO8601Timestamp`) accept the same
    /// strings, edge cases included: what schemathesis calls valid is what the gateway takes.
    @Test func theDateTimePatternAcceptsExactlyWhatTheGatewayReads() async throws {
        let samples = [
            "2023-02-28T00:00:00+0000", "2023-02-28T00:00:00+00:00", "2023-02-28T00:00:00Z", "2023-02-28t00:00:00z",
            "2023-02-28T00:00:00+05", "2023-02-28T00:00:00-0530", "2023-02-28T00:00:00.5Z", "2023-02-28T00:00:00.123456789+01:00",
            "2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "2000-02-29T12:00:00Z", "1900-02-29T12:00:00Z", "0000-02-29T00:00:00Z",
            "2023-04-31T00:00:00Z", "2023-04-30T00:00:00Z", "2023-12-31T23:59:60Z", "2023-12-31T23:59:61Z", "2023-12-31T24:00:00Z",
            "2023-13-01T00:00:00Z", "2023-00-10T00:00:00Z", "2023-01-00T00:00:00Z", "2023-01-01T00:60:00Z",
            "2023-01-01T00:00:00+24:00", "2023-01-01T00:00:00+23:59", "2023-01-01T00:00:00+05:60", "2023-01-01T00:00:00+5",
            "2023-01-01T00:00:00", "2023-01-01 00:00:00Z", "2023-01-01T00:00:00.Z", "2023-01-01T00:00Z", "23-01-01T00:00:00Z",
            "2023-01-01T00:00:00Z ", "2023-01-01T00:00:00+05:", "2023-01-01T00:00:00+0500x", "٢٠٢٣-01-01T00:00:00Z",
            "2023-01-01T00:00:00Z\n", "",
        ]
        let pattern = """
            import json, re, sys, yaml
            text = yaml.safe_load(open(sys.argv[1]))["components"]["schemas"]["DateTime"]["pattern"]
            # JSON Schema patterns are ECMA 262, where `$` is the end of the text; in Python it also
            # matches before a final newline.
            pattern = re.compile(text[:-1] + r"\\Z" if text.endswith("$") else text)
            print(json.dumps([pattern.search(sample) is not None for sample in json.loads(sys.argv[2])]))
            """
        let input = String(decoding: try JSONEncoder().encode(samples), as: UTF8.self)
        let output = try await Subprocess.run("/usr/bin/env", ["python3", "-c", pattern, Self.document, input])
        #expect(output.status == 0, "\(output.stderr)")
        let documented = try JSONDecoder().decode([Bool].self, from: Data(output.stdout.utf8))
        for (sample, matches) in zip(samples, documented) {
            #expect(matches == (ISO8601Timestamp.epochSeconds(from: sample) != nil), "\(sample.debugDescription)")
        }
        #expect(documented.count == samples.count)
    }
}
