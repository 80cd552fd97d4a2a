import APNsCore
import Foundation

/// Who a start to an audience goes to: the devices holding a push-to-start token for
/// `attributesType` whose users match `customAudience` and the segment's audience (both, when both are
/// named). Kept on the dispatch as given and evaluated when it is delivered.
package struct DispatchAudience: Sendable, Equatable {
    package var attributesType: String
    /// The connected audience object as the start gave it.
    package var customAudience: JSONValue?
    package var segmentID: UUID?

    package init(attributesType: String, customAudience: JSONValue?, segmentID: UUID?) {
        self.attributesType = attributesType
        self.customAudience = customAudience
        self.segmentID = segmentID
    }
}
