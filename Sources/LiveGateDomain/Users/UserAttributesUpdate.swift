/// One valid object of `/users/track`'s `attributes`: which user, and what changes.
package struct UserAttributesUpdate: Sendable, Equatable {
    package var user: UserReference
    /// Braze's `_update_existing_only`: an unknown user is skipped instead of created.
    package var updateExistingOnly: Bool
    /// By attribute name, in the order given.
    package var changes: [(name: String, change: CustomAttributeChange)]

    package init(user: UserReference, updateExistingOnly: Bool = false, changes: [(name: String, change: CustomAttributeChange)]) {
        self.user = user
        self.updateExistingOnly = updateExistingOnly
        self.changes = changes
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.user == rhs.user && lhs.updateExistingOnly == rhs.updateExistingOnly
            && lhs.changes.elementsEqual(rhs.changes) { $0.name == $1.name && $0.change == $1.change }
    }
}
