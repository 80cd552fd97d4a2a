import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite("ES256 provider tokens")
struct ProviderTokenTests {
    @Test func tokenIsAnES256JWTThatOpenSSLVerifies() async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let issued = Date(timeIntervalSince1970: 1_700_000_000.75)
        let token = try ProviderToken.sign(
            teamID: "TEAM123456", keyID: "KEY1234567", key: try P256SigningKey(pem: keys.privatePEM), issuedAt: issued)
        let parts = token.value.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try JSONValue.parse(try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue.parse(try #require(Base64URL.decode(parts[1])))
        #expect(header.isEquivalent(to: try JSONValue.parse(#"{"alg":"ES256","kid":"KEY1234567"}"#)))
        #expect(claims.isEquivalent(to: try JSONValue.parse(#"{"iss":"TEAM123456","iat":1700000000}"#)))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        // No padding anywhere: base64url as JWTs use it.
        #expect(!token.value.contains("="))

        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64, "raw r‖s, not DER")
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        let publicKey = try P256PublicKey(pem: keys.publicPEM)
        #expect(publicKey.verify(signature: signature, of: signingInput))
        #expect(!publicKey.verify(signature: signature, of: signingInput + [0x20]))

        // An independent check: the openssl command accepts the signature (converted to DER here).
        try Data(signingInput).write(to: keys.folder.appendingPathComponent("input"))
        try Data(Self.der(fromRaw: signature)).write(to: keys.folder.appendingPathComponent("sig.der"))
        let verified = try await Subprocess.bash(
            "openssl dgst -sha256 -verify '\(keys.folder.path)/pub.pem' -signature '\(keys.folder.path)/sig.der' '\(keys.folder.path)/input'"
        )
        #expect(verified.stdout.contains("Verified OK"), "\(verified.stdout)\(verified.stderr)")
    }

    @Test func otherKeysAreRefusedWithoutEchoingThem() async throws {
        let rsa = try await TestKeyPair.make("-algorithm RSA -pkeyopt rsa_keygen_bits:2048")
        let p384 = try await TestKeyPair.make("-algorithm EC -pkeyopt ec_paramgen_curve:P-384")
        defer {
            rsa.remove()
            p384.remove()
        }
        for pem in [rsa.privatePEM, p384.privatePEM] {
            #expect(throws: APNsKeyError.self) { try P256SigningKey(pem: pem) }
            do {
                _ = try P256SigningKey(pem: pem)
            } catch {
                #expect(error.code == .notP256)
                #expect(!error.description.contains("PRIVATE KEY"))
            }
        }
        do {
            _ = try P256SigningKey(pem: "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
            Issue.record("garbage was accepted")
        } catch {
            #expect(error.code == .unreadable)
            #expect(!error.description.contains("bm90IGEga2V5"))
        }
    }

    @Test func cacheReusesForFiftyMinutesAndRenewsARejectedTokenOnce() async throws {
        let keys = try await TestKeyPair.make()
        defer { keys.remove() }
        let clock = NIOLockedValueBox(Date(timeIntervalSince1970: 1_700_000_000))
        let cache = ProviderTokenCache(now: { clock.withLockedValue { $0 } })
        let credentials = APNsCredentials(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: keys.privatePEM)
        func advance(minutes: Double) { clock.withLockedValue { $0 += minutes * 60 } }

        let first = try cache.token(for: credentials)
        advance(minutes: 49)
        #expect(try cache.token(for: credentials) == first)
        advance(minutes: 2)
        let second = try cache.token(for: credentials)
        #expect(second != first)
        #expect(second.issuedAt == clock.withLockedValue { $0 })

        // APNs rejects it: one renewal; a rejection of the old token again changes nothing more.
        advance(minutes: 1)
        let renewed = try #require(try cache.renew(second, for: credentials))
        #expect(renewed != second)
        #expect(try cache.renew(second, for: credentials) == renewed)
        #expect(try cache.token(for: credentials) == renewed)
        // The renewed token is rejected too, within 20 minutes: the credential is the problem.
        advance(minutes: 5)
        #expect(try cache.renew(renewed, for: credentials) == nil)
        advance(minutes: 16)
        #expect(try cache.renew(renewed, for: credentials) != nil)
    }

    @Test func aReplacedKeyUnderTheSameIDsGetsItsOwnToken() async throws {
        let one = try await TestKeyPair.make()
        let two = try await TestKeyPair.make()
        defer {
            one.remove()
            two.remove()
        }
        let cache = ProviderTokenCache()
        let first = try cache.token(for: APNsCredentials(teamID: "T", keyID: "K", privateKeyPEM: one.privatePEM))
        let second = try cache.token(for: APNsCredentials(teamID: "T", keyID: "K", privateKeyPEM: two.privatePEM))
        let signature = try #require(Base64URL.decode(second.value.split(separator: ".")[2]))
        let input = Array(second.value.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        #expect(try P256PublicKey(pem: two.publicPEM).verify(signature: signature, of: input))
        #expect(first != second)
    }

    /// r‖s to a DER `ECDSA-Sig-Value`, written out by hand so the check does not reuse the code under test.
    static func der(fromRaw raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}
