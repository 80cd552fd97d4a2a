import APNsClient
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore

extension APNsSender {
    /// Sends to one of the gateway's apps, as delivery does; the tests' apps all have a signing key.
    func send(_ push: LiveActivityPush, app: App) async -> APNsSendResult {
        guard let destination = app.destination else { preconditionFailure("the test's app has no signing key") }
        return await send(push, to: destination)
    }
}
