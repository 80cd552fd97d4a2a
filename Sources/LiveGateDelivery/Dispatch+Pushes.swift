import APNsClient
import APNsCore
import LiveGateDomain

extension Dispatch {
    /// The dispatch's push to each of `targets`, each with its own `apns-id` from `ids`.
    package func pushes(to targets: [FanoutTarget], ids: inout APNsIDGenerator) -> [LiveActivityPush] {
        targets.map { target in
            LiveActivityPush(deviceToken: target.token, payload: payload, priority: priority, expiresAt: expiresAt, apnsID: ids.next())
        }
    }
}
