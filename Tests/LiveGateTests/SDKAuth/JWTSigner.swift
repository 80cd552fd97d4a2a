import Foundation
import TestSupport

/// Signs JWTs as a customer's server would, with PyJWT (an independent implementation: the gateway's own
/// code never makes the tokens it checks). The odd tokens PyJWT refuses to make (`alg: none`, HS256
/// keyed with the public key) are put together in the same Python script by hand.
enum JWTSigner {
    /// One token to make: `key` is a private key file; `algorithm` is ES256, RS256, ES384…, or
    /// `none` / `HS256-public` for the forgeries.
    struct Token: Sendable {
        var key: String
        var algorithm: String
        var claims: [String: any Sendable]
        var headers: [String: String] = [:]
    }

    static let script = #"""
        import base64, hashlib, hmac, json, sys
        import jwt

        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        for spec in json.load(sys.stdin):
            key = open(spec["key"]).read()
            claims, headers = spec["claims"], spec["headers"] or None
            if spec["algorithm"] == "none":
                head = b64(json.dumps({"alg": "none", "typ": "JWT"}).encode())
                print(head + "." + b64(json.dumps(claims).encode()) + ".")
            elif spec["algorithm"] == "HS256-public":
                # The classic confusion: an HMAC keyed with the public key, which everyone has.
                head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
                body = head + "." + b64(json.dumps(claims).encode())
                mac = hmac.new(open(spec["public"]).read().encode(), body.encode(), hashlib.sha256).digest()
                print(body + "." + b64(mac))
            else:
                print(jwt.encode(claims, key, algorithm=spec["algorithm"], headers=headers))
        """#

    static func sign(_ tokens: [Token]) async throws -> [String] {
        let specs: [[String: Any]] = tokens.map { token in
            [
                "key": token.key, "public": token.key.replacingOccurrences(of: ".pem", with: ".pub.pem"),
                "algorithm": token.algorithm, "claims": token.claims, "headers": token.headers,
            ]
        }
        let input = try JSONSerialization.data(withJSONObject: specs)
        let output = try await Subprocess.run(
            "/bin/bash", ["-c", "python3 -c \"$1\" <<< \"$2\"", "sign", script, String(decoding: input, as: UTF8.self)])
        guard output.status == 0 else { throw Subprocess.Failure(description: "PyJWT failed: \(output.stderr)") }
        let lines = output.stdout.split(separator: "\n").map(String.init)
        guard lines.count == tokens.count else { throw Subprocess.Failure(description: "PyJWT printed \(output.stdout)") }
        return lines
    }

    static func sign(_ token: Token) async throws -> String {
        try await sign([token])[0]
    }

    /// Claims for `user` expiring `expiresIn` seconds from now (negative: already expired).
    static func claims(_ user: String, expiresIn: TimeInterval = 300, now: Date = Date()) -> [String: any Sendable] {
        ["sub": user, "exp": Int(now.timeIntervalSince1970 + expiresIn), "iat": Int(now.timeIntervalSince1970)]
    }
}
