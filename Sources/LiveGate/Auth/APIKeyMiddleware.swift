import Hummingbird

/// Requires a valid REST API key with `permission`, used from an allowed address (SPEC §2–§3).
///
/// 401: no key, an unknown key, or a revoked one. 403 `Access Denied`: the key lacks the permission or
/// the caller's address is outside its allowlist. The key itself is never logged: only its id.
public struct APIKeyMiddleware: RouterMiddleware {
    public typealias Context = LiveGateRequestContext
    let authenticator: APIKeyAuthenticator
    /// Nil: any valid key may call.
    let permission: APIKeyPermission?

    public init(authenticator: APIKeyAuthenticator, permission: APIKeyPermission?) {
        self.authenticator = authenticator
        self.permission = permission
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let presented = Self.bearerToken(request.headers[.authorization]) else { throw APIError.missingKey }
        let key: APIKey
        switch try await authenticator.authenticate(presented) {
        case .unknown: throw APIError.invalidKey
        case .revoked: throw APIError.revokedKey
        case .authenticated(let found): key = found
        }
        var context = context
        context.logger[metadataKey: "api_key_id"] = "\(key.id)"
        context.logger[metadataKey: "workspace_id"] = "\(key.workspaceID)"
        if let permission, !key.permissions.contains(permission) {
            context.logger.info("API key lacks permission", metadata: ["permission": "\(permission)"])
            throw APIError(.forbidden, "Access Denied", errors: ["this API key does not have the \(permission) permission"])
        }
        guard key.allows(context.clientAddress) else {
            context.logger.info("API key used from an address outside its allowlist", metadata: ["client_ip": "\(context.clientAddress.map(String.init(describing:)) ?? "unknown")"])
            throw APIError(.forbidden, "Access Denied", errors: ["this API key may not be used from this IP address"])
        }
        context.apiKey = key
        return try await next(request, context)
    }

    /// The credentials of `Authorization: Bearer <key>` (scheme case-insensitive, RFC 7235). Scanned
    /// byte by byte: it runs on every authenticated request.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        var start = 0
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        let scheme = Array("bearer".utf8)
        guard bytes.count - start > scheme.count,
            zip(bytes[start...], scheme).allSatisfy({ $0.asciiLowercased == $1 }),
            bytes[start + scheme.count] == UInt8(ascii: " ")
        else { return nil }
        var tokenStart = start + scheme.count
        var tokenEnd = bytes.count
        while tokenStart < tokenEnd, bytes[tokenStart] == UInt8(ascii: " ") || bytes[tokenStart] == UInt8(ascii: "\t") {
            tokenStart += 1
        }
        while tokenEnd > tokenStart, bytes[tokenEnd - 1] == UInt8(ascii: " ") || bytes[tokenEnd - 1] == UInt8(ascii: "\t") {
            tokenEnd -= 1
        }
        guard tokenStart < tokenEnd else { return nil }
        return String(decoding: bytes[tokenStart..<tokenEnd], as: UTF8.self)
    }
}
