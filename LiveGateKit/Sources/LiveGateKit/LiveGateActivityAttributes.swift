/// Attributes of an activity LiveGate can start remotely: a push-to-start sets `brazeActivityId` to the
/// start's `activity_id`, and the SDK tags the started activity's update token with it. The same
/// requirement as Braze's `BrazeLiveActivityAttributes`, so attributes written for Braze work unchanged.
@available(iOS 16.0, macOS 13.0, *)
public protocol LiveGateActivityAttributes {
    var brazeActivityId: String? { get set }
}
