import APNsClient
import APNsCore
import LiveGateDomain

extension Dispatch {
    /// The dispatch's push to each of `targets`, each with its own `apns-id` from `ids`. Under a priority
    /// budget (`standing`), each device gets the priority its budget allows.
    package func pushes(
        to targets: [FanoutTarget], standing: PriorityStanding? = nil, ids: inout APNsIDGenerator
    ) -> [LiveActivityPush] {
        targets.map { target in
            LiveActivityPush(
                deviceToken: target.token, payload: payload,
                priority: standing?.priority(frequentPushesEnabled: target.frequentPushesEnabled) ?? priority,
                expiresAt: expiresAt, apnsID: ids.next())
        }
    }
}
