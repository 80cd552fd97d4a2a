import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("SDK authentication keys: which public keys are taken, as openssl made them")
struct SDKAuthPublicKeyTests {
    @Test(arguments: [("ec.pub.pem", SDKAuthAlgorithm.es256, 256), ("rsa.pub.pem", .rs256, 2048)])
    func acceptedKeysAreStoredAsOpenSSLWritesThem(file: String, algorithm: SDKAuthAlgorithm, bits: Int) async throws {
        let files = try await SDKAuthKeyFiles.shared.value
        let original = try files.text(file)
        // Whatever surrounds the block (comments, Windows line ends) is not kept.
        let decorated = "a comment line\r\n" + original.replacingOccurrences(of: "\n", with: "\r\n")
        let key = try SDKAuthPublicKey(pem: decorated)
        #expect(key.algorithm == algorithm)
        #expect(key.bits == bits)
        #expect(key.pem == original)
        #expect(key.fingerprint == (try await files.opensslFingerprint(file)))
    }

    @Test(arguments: [
        ("ec.pem", "this is a private key: give only its public half (openssl pkey -in key.pem -pubout)"),
        ("ec.cert.pem", "this is a certificate: give its public key (openssl x509 -in cert.pem -pubkey -noout)"),
        (
            "rsa.pkcs1.pem",
            "this is a PKCS#1 RSA key: convert it to SubjectPublicKeyInfo (openssl pkey -pubin -in key.pem -out spki.pem)"
        ),
        ("two.pub.pem", "the file holds 2 PEM blocks: give one public key per file"),
        ("p384.pub.pem", "EC keys must be on the P-256 curve (prime256v1), for ES256"),
        ("k256.pub.pem", "EC keys must be on the P-256 curve (prime256v1), for ES256"),
        ("ed25519.pub.pem", "unsupported key type: give an EC P-256 key (ES256) or an RSA key (RS256)"),
        ("rsa1024.pub.pem", "RSA keys must have 2048 to 8192 bits, this one has 1024"),
    ])
    func otherFilesAreRefusedSayingWhatToGive(file: String, message: String) async throws {
        let text = try await SDKAuthKeyFiles.shared.value.text(file)
        #expect(throws: SDKAuthKeyError.self) { try SDKAuthPublicKey(pem: text) }
        do {
            _ = try SDKAuthPublicKey(pem: text)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func garbageIsUnreadable() {
        for text in ["", "hello", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"] {
            do {
                _ = try SDKAuthPublicKey(pem: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.code == .unreadable)
            }
        }
    }
}
