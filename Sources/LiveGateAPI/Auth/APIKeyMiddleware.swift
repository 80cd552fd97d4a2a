import Hummingbird
import LiveGateDomain
import Logging

/// Requires a valid REST API key with `permission` (or one of several), used from an allowed address.
///
/// 401: no key, an unknown key, or a revoked one. 403 `Access Denied`: the key lacks the permission or
/// the caller's address is outside its allowlist. The key itself is never logged: only its id.
package struct APIKeyMiddleware: RouterMiddleware {
    package typealias Context = LiveGateRequestContext
    let authenticator: APIKeyAuthenticator
    /// The key needs one of these; empty: any valid key may call.
    let permissions: [APIKeyPermission]

    package init(authenticator: APIKeyAuthenticator, permission: APIKeyPermission?) {
        self.init(authenticator: authenticator, anyOf: permission.map { [$0] } ?? [])
    }

    package init(authenticator: APIKeyAuthenticator, anyOf permissions: [APIKeyPermission]) {
        self.authenticator = authenticator
        self.permissions = permissions
    }

    package func handle(
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
        if !permissions.isEmpty, !permissions.contains(where: key.permissions.contains) {
            let names = permissions.map(\.rawValue)
            context.logger.info("API key lacks permission", metadata: ["permission": "\(names.joined(separator: ","))"])
            let needed = names.count == 1 ? "the \(names[0])" : "any of the \(names.joined(separator: ", "))"
            throw APIError.accessDenied("this API key does not have \(needed) permission")
        }
        guard key.allows(context.clientAddress) else {
            context.logger.info(
                "API key used from an address outside its allowlist",
                metadata: ["client_ip": "\(context.clientAddress.map(String.init(describing:)) ?? "unknown")"])
            throw APIError.accessDenied("this API key may not be used from this IP address")
        }
        context.apiKey = key
        return try await next(request, context)
    }

    /// The credentials of `Authorization: Bearer <key>` (scheme case-insensitive, RFC 7235). Scanned
    /// byte by byte: it runs on every authenticated request.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let value = Array(header.utf8).drop { $0 == UInt8(ascii: " ") }
        let scheme = "bearer".utf8
        guard value.count > scheme.count, value.prefix(scheme.count).equalsIgnoringASCIICase(scheme),
            value[value.startIndex + scheme.count] == UInt8(ascii: " ")
        else { return nil }
        let token = value.dropFirst(scheme.count).trimmingOptionalWhitespace()
        return token.isEmpty ? nil : String(decoding: token, as: UTF8.self)
    }
}
