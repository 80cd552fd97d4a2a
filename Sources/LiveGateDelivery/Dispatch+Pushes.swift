import APNsClient
import APNsCore
import LiveGateDomain

extension Dispatch {
    /// The dispatch's push to each of `targets`, each with its own `apns-id` from `ids`. Under a priority
    /// budget (`standing`), each device gets the priority its budget allows.
    ///
    /// With `payloadSharedBy`, each run of that many pushes (a batch, as `PushSending` cuts them) carries
    /// a copy of the payload of its own: batches go out side by side on different threads, and a payload
    /// every push shared would have those threads contend for its reference count on every copy of a
    /// push. A copy costs one allocation per batch.
    package func pushes(
        to targets: [FanoutTarget], standing: PriorityStanding? = nil, ids: inout APNsIDGenerator,
        payloadSharedBy sharing: Int? = nil
    ) -> [LiveActivityPush] {
        var pushes: [LiveActivityPush] = []
        pushes.reserveCapacity(targets.count)
        var batchPayload = payload
        for (index, target) in targets.enumerated() {
            if let sharing, index % max(1, sharing) == 0 {
                batchPayload = payload.withUnsafeBufferPointer { Array($0) }
            }
            pushes.append(
                LiveActivityPush(
                    deviceToken: target.token, payload: batchPayload,
                    priority: standing?.priority(frequentPushesEnabled: target.frequentPushesEnabled) ?? priority,
                    expiresAt: expiresAt, apnsID: ids.next()))
        }
        return pushes
    }
}
