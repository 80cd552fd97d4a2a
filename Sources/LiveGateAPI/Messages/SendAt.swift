import Foundation
import LiveGateDomain

/// `send_at` on `update` and `start` (beyond Braze): deliver the message at that time rather than now.
/// The call is validated, rate-counted and committed at once; only the sending waits.
enum SendAt {
    /// How far ahead a message may be scheduled: a week covers any fixture list, and bounds how long
    /// an accepted message sits in the database.
    static let maximumLead: Duration = .seconds(7 * 24 * 3600)

    /// The time to send at, or nil to send now: absent, or not after `now` (a past time means now).
    /// A time more than `maximumLead` ahead is recorded as a problem naming the field.
    static func read(_ fields: FieldReader, now: Date) -> Date? {
        guard let sendAt = fields.instant("send_at"), sendAt > now else { return nil }
        if sendAt > now + maximumLead {
            fields.problems.add(
                "\(fields.name("send_at")) must be at most 7 days ahead, got \(sendAt.iso8601) (now is \(now.iso8601))")
            return nil
        }
        return sendAt
    }
}
