import COpenSSL
import Foundation

/// A throwaway TLS identity for `livegate apns-sim --tls`: a fresh P-256 key and a self-signed
/// certificate naming the host the simulator listens on, made with OpenSSL when it starts. A client
/// trusts it by taking `certificatePEM` as its only CA (`LIVEGATE_APNS_CA_FILE`), as APNs's real
/// certificate is trusted through the system's CAs.
package struct SelfSignedCertificate: Sendable {
    package let certificatePEM: String
    /// PKCS#8 PEM; it never leaves the process (the simulator hands it to NIOSSL).
    package let privateKeyPEM: String
    /// As written in the certificate, e.g. `["IP:127.0.0.1"]`.
    package let subjectAlternativeNames: [String]

    /// `host` is what the simulator binds: an IP address gets an IP name, anything else a DNS name;
    /// an any-address (`0.0.0.0`, `::`) gets the loopback names, since no client connects to it as such.
    package init(host: String, validForDays days: Int = 365) throws(SimulatorTLSError) {
        let names = try Self.subjectAlternativeNames(for: host)
        guard let key = lg_p256_generate_key() else { throw .openSSL("generating a P-256 key") }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw .openSSL("allocating a certificate") }
        defer { X509_free(certificate) }

        // The common name is informational (clients match the subjectAltName); it is at most 64 bytes.
        let commonName = Array((names.first.map { String($0.drop { $0 != ":" }.dropFirst()) } ?? host).utf8.prefix(64))
        let subject = X509_get_subject_name(certificate)
        let built =
            X509_set_version(certificate, 2) == 1  // 2 is v3, which extensions need
            // A random serial: clients that cache certificates by issuer and serial never confuse two runs.
            && ASN1_INTEGER_set_int64(X509_get_serialNumber(certificate), Int64.random(in: 1...Int64.max)) == 1
            // Valid from an hour ago, so a client whose clock is a little behind still accepts it.
            && X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil
            && X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400) != nil
            && X509_set_pubkey(certificate, key) == 1
            && X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, commonName, Int32(commonName.count), -1, 0) == 1
            && X509_set_issuer_name(certificate, subject) == 1
            // A server certificate that cannot sign others: trusting it trusts only this simulator.
            && lg_x509_add_extension(certificate, NID_basic_constraints, "critical,CA:FALSE") == 1
            && lg_x509_add_extension(certificate, NID_ext_key_usage, "serverAuth") == 1
            && lg_x509_add_extension(certificate, NID_subject_alt_name, names.joined(separator: ",")) == 1
            && X509_sign(certificate, key, EVP_sha256()) > 0
        guard built else { throw .openSSL("building the certificate for \(host)") }

        certificatePEM = try Self.pem("writing the certificate") { PEM_write_bio_X509($0, certificate) }
        privateKeyPEM = try Self.pem("writing the private key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        subjectAlternativeNames = names
    }

    static func subjectAlternativeNames(for host: String) throws(SimulatorTLSError) -> [String] {
        // The names go into an OpenSSL extension string, where a comma starts another name.
        guard !host.isEmpty, !host.contains(","), !host.contains(where: \.isWhitespace) else {
            throw SimulatorTLSError("'\(host)' is not a host name or IP address")
        }
        if ["0.0.0.0", "::", "[::]"].contains(host) { return ["DNS:localhost", "IP:127.0.0.1", "IP:::1"] }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return [isIPAddress(bare) ? "IP:\(bare)" : "DNS:\(bare)"]
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// What `write` puts into a memory BIO, as text; the BIO is freed here.
    private static func pem(_ step: String, _ write: (OpaquePointer) -> Int32) throws(SimulatorTLSError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL(step) }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw .openSSL(step) }
        var start: UnsafePointer<CChar>?
        let length = lg_bio_mem_contents(bio, &start)
        guard length > 0, let start else { throw .openSSL(step) }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
    }
}
