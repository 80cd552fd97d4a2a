import APNsSimulator
import Foundation
import TestSupport
import Testing

@Suite("The simulator's self-signed certificate")
struct SelfSignedCertificateTests {
    /// What the openssl command reads in the certificate: its names, constraints and whether it verifies
    /// as its own issuer, as a client given it as its only CA does.
    static func inspect(_ certificate: SelfSignedCertificate) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cert.pem").path
        try Data(certificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: file))
        let output = try await Subprocess.bash(
            "openssl x509 -in '\(file)' -noout -subject -ext subjectAltName,basicConstraints,extendedKeyUsage -text"
                + " && openssl verify -CAfile '\(file)' -purpose sslserver '\(file)'")
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    @Test func anIPAddressGetsAnIPName() async throws {
        let certificate = try SelfSignedCertificate(host: "127.0.0.1")
        #expect(certificate.subjectAlternativeNames == ["IP:127.0.0.1"])
        let text = try await Self.inspect(certificate)
        #expect(text.contains("subject=CN = 127.0.0.1"), "\(text)")
        #expect(text.contains("IP Address:127.0.0.1"), "\(text)")
        #expect(text.contains("CA:FALSE"), "\(text)")
        #expect(text.contains("TLS Web Server Authentication"), "\(text)")
        #expect(text.contains("ASN1 OID: prime256v1"), "\(text)")
        #expect(text.contains("ecdsa-with-SHA256"), "\(text)")
        #expect(text.contains(": OK"), "\(text)")
        #expect(certificate.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func aNameGetsADNSName() async throws {
        let certificate = try SelfSignedCertificate(host: "sim.example.test")
        #expect(certificate.subjectAlternativeNames == ["DNS:sim.example.test"])
        let text = try await Self.inspect(certificate)
        #expect(text.contains("DNS:sim.example.test"), "\(text)")
    }

    @Test func anIPv6AddressAndTheAnyAddresses() throws {
        #expect(try SelfSignedCertificate(host: "::1").subjectAlternativeNames == ["IP:::1"])
        #expect(try SelfSignedCertificate(host: "0.0.0.0").subjectAlternativeNames == ["DNS:localhost", "IP:127.0.0.1", "IP:::1"])
        #expect(try SelfSignedCertificate(host: "::").subjectAlternativeNames == ["DNS:localhost", "IP:127.0.0.1", "IP:::1"])
    }

    @Test func eachCertificateHasItsOwnKey() throws {
        let first = try SelfSignedCertificate(host: "127.0.0.1")
        let second = try SelfSignedCertificate(host: "127.0.0.1")
        #expect(first.privateKeyPEM != second.privateKeyPEM)
        #expect(first.certificatePEM != second.certificatePEM)
    }

    @Test func aHostThatCannotBeNamedIsRefused() {
        #expect(throws: SimulatorTLSError.self) { try SelfSignedCertificate(host: "a,IP:10.0.0.1") }
        #expect(throws: SimulatorTLSError.self) { try SelfSignedCertificate(host: "") }
    }
}
