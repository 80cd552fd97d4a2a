/// Storage of the tokens the SDK reports.
package protocol TokenRegistry: Sendable {
    /// Stores, replaces or (with a nil token) removes one device's registration. Applying the same
    /// registration twice leaves one row. An update token confirms the device's push-to-starts of its
    /// activity: they are returned.
    @discardableResult
    func apply(_ registration: TokenRegistration, app: App) async throws -> ConfirmedStarts
}
