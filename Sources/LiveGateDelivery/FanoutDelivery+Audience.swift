import APNsCore
import Foundation
import LiveGateDomain

extension FanoutDelivery {
    /// What a start to an audience goes to this time: its `custom_audience` and its segment's audience as
    /// the segment is now (both, when both are named). A failure is the log entry the dispatch ends with.
    func audience(of dispatch: Dispatch) async throws -> Result<Audience, AudienceUnavailable> {
        guard let target = dispatch.audience else { return .failure(AudienceUnavailable(entry: nil)) }
        var parts: [Audience] = []
        if let segmentID = target.segmentID {
            guard let json = try await queue.segmentAudience(segmentID, workspaceID: dispatch.workspaceID),
                let audience = AudienceReader.read(json, at: "audience", problems: ValidationProblems())
            else { return .failure(AudienceUnavailable(entry: DeliveryLogEntries.segmentGone(dispatch, segmentID: segmentID))) }
            parts.append(audience)
        }
        if let json = target.customAudience {
            guard let audience = AudienceReader.read(json, at: "custom_audience", problems: ValidationProblems()) else {
                return .failure(AudienceUnavailable(entry: nil))
            }
            parts.append(audience)
        }
        guard let first = parts.first else { return .failure(AudienceUnavailable(entry: nil)) }
        return .success(parts.count == 1 ? first : .all(parts))
    }
}

/// Why a start to an audience cannot go on, as the log tells it (nil: a dispatch no release of the
/// gateway could have written).
struct AudienceUnavailable: Error {
    var entry: ActivityLogEntry?
}
