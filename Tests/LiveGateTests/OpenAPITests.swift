import Foundation
import LiveGate
import PostgresClient
import Testing
import TestSupport

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
        let (_, routes) = buildRouter(configuration: .init(), dependencies: .postgres(pool: pool))
        await pool.close()
        #expect(documented == routes.descriptions)
    }
}
