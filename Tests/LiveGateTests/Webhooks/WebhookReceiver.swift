import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import LiveGateDomain
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// A webhook receiver on a real socket: records every batch (body, signature header, event ids),
/// answers `status` (tests set 503 to make it fail), and counts how many POSTs it had at once.
final class WebhookReceiver: Sendable {
    struct Batch: Sendable {
        let body: [UInt8]
        let signature: String?
        let contentType: String?
        let status: Int

        var events: [JSONValue] { (try? JSONValue.parse(String(decoding: body, as: UTF8.self)))?.arrayValue ?? [] }
        var ids: [String] { events.compactMap { $0["id"]?.stringValue } }
    }

    struct State {
        var status = 200
        var delay: Duration = .zero
        var batches: [Batch] = []
        var inFlight = 0
        var mostInFlight = 0
    }

    let state = NIOLockedValueBox(State())

    var status: Int {
        get { state.withLockedValue { $0.status } }
        set { state.withLockedValue { $0.status = newValue } }
    }
    var batches: [Batch] { state.withLockedValue { $0.batches } }
    /// Ids of the events in batches answered 2xx, in arrival order.
    var deliveredIDs: [String] { batches.filter { (200..<300).contains($0.status) }.flatMap(\.ids) }
    var mostInFlight: Int { state.withLockedValue { $0.mostInFlight } }

    func setDelay(_ delay: Duration) { state.withLockedValue { $0.delay = delay } }

    /// Serves on 127.0.0.1 for the length of `body`, which gets the receiver and its URL.
    static func with<Result: Sendable>(_ body: @Sendable (WebhookReceiver, String) async throws -> Result) async throws -> Result {
        let receiver = WebhookReceiver()
        let router = Router()
        router.post("/hook") { @Sendable (request: Request, _: BasicRequestContext) async throws -> Response in
            let bytes = try await request.body.collect(upTo: 16 << 20)
            let (status, delay) = receiver.state.withLockedValue { state in
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                return (state.status, state.delay)
            }
            if delay > .zero { try? await Task.sleep(for: delay) }
            receiver.state.withLockedValue { state in
                state.inFlight -= 1
                state.batches.append(
                    Batch(
                        body: Array(buffer: bytes), signature: request.headers[HTTPField.Name("LiveGate-Signature")!],
                        contentType: request.headers[.contentType], status: status))
            }
            return Response(status: .init(code: status))
        }
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.webhook-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Result?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var ports = portStream.makeAsyncIterator()
            let port = await ports.next() ?? 0
            do {
                let result = try await body(receiver, "http://127.0.0.1:\(port)/hook")
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// Waits until `condition` holds, checking every 50 ms, for at most `timeout`.
    func wait(for timeout: Duration = .seconds(30), _ condition: (WebhookReceiver) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }
}
