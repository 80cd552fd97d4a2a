import LiveGateDomain
import PostgresClient

extension PostgresTenancyRepository {
    package func setSDKAuthentication(appIdentifier: String, keys: [SDKAuthPublicKey]?, enforced: Bool) async throws -> App? {
        if let keys, keys.count > SDKAuthentication.maximumKeys {
            throw TenancyError(.invalidValue, "an app holds at most \(SDKAuthentication.maximumKeys) SDK authentication keys")
        }
        do {
            let rows = try await pool.query(
                """
                UPDATE apps SET sdk_auth_public_keys = COALESCE($2::text[], sdk_auth_public_keys), sdk_auth_enforced = $3
                WHERE app_identifier = $1 RETURNING \(Self.appColumns)
                """, [appIdentifier, keys?.map(\.pem), enforced])
            return try rows.first.map(Self.app(from:))
        } catch let error as PostgresError where error.message.contains("apps_sdk_auth_enforced_needs_key") {
            throw TenancyError(
                .invalidValue, "SDK authentication cannot be enforced without a public key: the app has none, so give one")
        }
    }
}
