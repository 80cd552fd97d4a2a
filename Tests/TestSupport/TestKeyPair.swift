import Foundation

/// Keys made with the openssl command for a test, in a folder removed afterwards.
package struct TestKeyPair: Sendable {
    package let privatePEM: String
    package let publicPEM: String
    package let folder: URL

    /// `algorithm` is passed to `openssl genpkey`, e.g. `-algorithm EC -pkeyopt ec_paramgen_curve:P-256`.
    package static func make(_ algorithm: String = "-algorithm EC -pkeyopt ec_paramgen_curve:P-256") async throws -> TestKeyPair {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try await Subprocess.bash(
            "openssl genpkey \(algorithm) -out '\(folder.path)/key.p8' && openssl pkey -in '\(folder.path)/key.p8' -pubout -out '\(folder.path)/pub.pem'"
        )
        guard made.status == 0 else { throw Subprocess.Failure(description: "openssl genpkey failed: \(made.stderr)") }
        return TestKeyPair(
            privatePEM: try String(contentsOf: folder.appendingPathComponent("key.p8"), encoding: .utf8),
            publicPEM: try String(contentsOf: folder.appendingPathComponent("pub.pem"), encoding: .utf8),
            folder: folder)
    }

    package func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

extension TestKeyPair {
    /// A self-signed P-256 certificate for 127.0.0.1, for a TLS test server.
    package struct Certificate: Sendable {
        package let keyFile: String
        package let certificateFile: String
        package let folder: URL

        package static func make() async throws -> Certificate {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let made = try await Subprocess.bash(
                "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 "
                    + "-addext subjectAltName=IP:127.0.0.1 -keyout '\(folder.path)/key.pem' -out '\(folder.path)/cert.pem'")
            guard made.status == 0 else { throw Subprocess.Failure(description: "openssl req failed: \(made.stderr)") }
            return Certificate(
                keyFile: folder.appendingPathComponent("key.pem").path,
                certificateFile: folder.appendingPathComponent("cert.pem").path, folder: folder)
        }

        package func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
