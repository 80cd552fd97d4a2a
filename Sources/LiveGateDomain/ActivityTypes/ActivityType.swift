import APNsCore
import Foundation

/// An app's ActivityAttributes type as the app decodes it: the shape of its `ContentState` and of its
/// attributes, which the API checks every `content_state` (and a start's `activity_attributes`) against.
package struct ActivityType: Sendable {
    package let appID: UUID
    /// The ActivityAttributes type's name, as starts and the SDK name it.
    package let name: String
    package let contentState: PayloadSchema
    /// Nil: the attributes are not checked.
    package let attributes: PayloadSchema?
    package let mode: PayloadCheckMode
    package let updatedAt: Date

    package init(
        appID: UUID, name: String, contentState: PayloadSchema, attributes: PayloadSchema?, mode: PayloadCheckMode,
        updatedAt: Date
    ) {
        self.appID = appID
        self.name = name
        self.contentState = contentState
        self.attributes = attributes
        self.mode = mode
        self.updatedAt = updatedAt
    }
}
