import Foundation
import TestSupport

/// Keys made once per test run by the openssl command, in a folder of their own: the ones SDK
/// authentication accepts and the ones it must refuse.
struct SDKAuthKeyFiles: Sendable {
    let folder: URL

    /// `name.pem` (private, PKCS#8) and `name.pub.pem` (SubjectPublicKeyInfo) for each of these.
    static let generated: [(name: String, genpkey: String)] = [
        ("ec", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256"),
        ("ec2", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256"),
        ("rsa", "-algorithm RSA -pkeyopt rsa_keygen_bits:2048"),
        ("p384", "-algorithm EC -pkeyopt ec_paramgen_curve:P-384"),
        // 256 bits like P-256, another curve: the check must look at the curve, not the size.
        ("k256", "-algorithm EC -pkeyopt ec_paramgen_curve:secp256k1"),
        ("ed25519", "-algorithm ED25519"),
        ("rsa1024", "-algorithm RSA -pkeyopt rsa_keygen_bits:1024"),
    ]

    static let shared = Task<SDKAuthKeyFiles, any Error> { try await make() }

    static func make() async throws -> SDKAuthKeyFiles {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-sdk-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var script = "set -e; cd '\(folder.path)'; "
        for (name, genpkey) in generated {
            script += "openssl genpkey \(genpkey) -out \(name).pem 2>/dev/null; openssl pkey -in \(name).pem -pubout -out \(name).pub.pem; "
        }
        script += "openssl req -x509 -new -key ec.pem -subj /CN=sdk-auth-test -days 1 -out ec.cert.pem 2>/dev/null; "
        script += "openssl rsa -in rsa.pem -RSAPublicKey_out -out rsa.pkcs1.pem 2>/dev/null; "
        script += "cat ec.pub.pem ec2.pub.pem > two.pub.pem"
        let made = try await Subprocess.run("/bin/bash", ["-c", script])
        guard made.status == 0 else { throw Subprocess.Failure(description: "openssl failed: \(made.stderr)") }
        return SDKAuthKeyFiles(folder: folder)
    }

    func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    func text(_ file: String) throws -> String { try String(contentsOfFile: path(file), encoding: .utf8) }

    /// The public key's SHA-256 fingerprint as openssl computes it from the DER SubjectPublicKeyInfo.
    func opensslFingerprint(_ publicFile: String) async throws -> String {
        let output = try await Subprocess.run(
            "/bin/bash", ["-c", "openssl pkey -pubin -in '\(path(publicFile))' -outform DER | openssl dgst -sha256 -r"])
        guard output.status == 0, let hex = output.stdout.split(separator: " ").first else {
            throw Subprocess.Failure(description: "openssl dgst failed: \(output.stderr)")
        }
        return String(hex)
    }
}
