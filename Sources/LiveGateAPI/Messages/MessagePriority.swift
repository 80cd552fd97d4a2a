import APNsCore
import LiveGateDomain

/// A message's APNs priority: 10 by default, 5 for a `content-available` message, and an explicit `priority` or
/// `notification.apns_priority` wins (the two must agree when both are given).
enum MessagePriority {
    static func resolve(_ fields: FieldReader, notification: ApplePushOptions) -> APNsPriority {
        let explicit = fields.priority("priority")
        if let explicit, let other = notification.apnsPriority, explicit != other {
            fields.problems.add("priority (\(explicit)) and notification.apns_priority (\(other)) disagree: give one")
        }
        if let chosen = explicit ?? notification.apnsPriority { return chosen }
        return notification.contentAvailable ? .conservesPower : .immediate
    }
}
