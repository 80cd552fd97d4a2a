import APNsCore
import Logging
import NIOCore

/// The simulator's own control API, for tests and scripts that run it as a separate process. It is
/// not part of APNs. It lives under `/_sim/`, a path APNs never serves (APNs answers anything but
/// `POST /3/device/…` with an error), so pushes still go through every APNs check.
///
/// - `GET /_sim/pushes`: the accepted pushes, oldest first; `DELETE /_sim/pushes` forgets them.
/// - `PUT /_sim/tokens/<hex>` with `{"status":410}`, `{"status":500,"reason":"InternalServerError","times":1}`
///   or `{"delay_ms":200}`: how pushes to that token are answered from now on (see
///   `SimulatedBehavior(controlJSON:)`); `DELETE /_sim/tokens/<hex>` restores normal answers.
/// - `GET /_sim/broadcasts`: the accepted broadcasts, oldest first; `DELETE /_sim/broadcasts` forgets them.
/// - `GET /_sim/channels`: every app's broadcast channels, oldest first (to make APNs forget one,
///   delete it through the management API, as an app would).
/// - `PUT /_sim/apps/<bundle id>` with the same bodies as `/_sim/tokens/<hex>`: how that app's channel
///   management and broadcast requests are answered; `DELETE /_sim/apps/<bundle id>` restores them.
/// - `GET /_sim/settings`: latency, stream limit, and each connection's streams (open now, and the most
///   open at once since the client acknowledged the limit in force); `PUT /_sim/settings` with
///   `{"latency_ms":50}`, `{"max_streams":10}` or both changes them at once (a lower limit reaches open
///   connections in a SETTINGS frame).
/// - `/_sim/faults…`: streams reset, connections closed, GOAWAY, TLS refused (`SimulatorControl+Faults.swift`).
///   Control requests themselves are never faulted (a new connection's TLS refusal aside).
enum SimulatorControl {
    static func handles(path: String) -> Bool {
        path == "/_sim" || path.hasPrefix("/_sim/")
    }

    /// What the simulator recorded: GET lists it, DELETE forgets it.
    private static func recorded(
        method: String, route: Substring, list: @autoclosure () -> [JSONValue], clear: () -> Void
    ) -> APNsSimulator.Answer {
        switch method {
        case "GET": return json(200, .array(list()))
        case "DELETE":
            clear()
            return noContent
        default: return problem(405, "\(route) takes GET or DELETE")
        }
    }

    static func answer(method: String, path: String, body: [UInt8], simulator: APNsSimulator) -> APNsSimulator.Answer {
        let route = path.prefix { $0 != "?" }
        if route == "/_sim/pushes" {
            return recorded(method: method, route: route, list: simulator.received.map(\.controlJSON), clear: simulator.clearReceived)
        }
        if route == "/_sim/broadcasts" {
            return recorded(method: method, route: route, list: simulator.broadcasts.map(\.controlJSON), clear: simulator.clearBroadcasts)
        }
        if route == "/_sim/channels" {
            guard method == "GET" else { return problem(405, "\(route) takes GET") }
            return json(200, simulator.channelsJSON)
        }
        if route == "/_sim/settings" { return settings(method: method, body: body, simulator: simulator) }
        if let answer = faults(method: method, route: route, body: body, simulator: simulator) { return answer }
        let apps = "/_sim/apps/"
        if route.hasPrefix(apps), !route.dropFirst(apps.count).contains("/"), route.count > apps.count {
            let bundleID = String(route.dropFirst(apps.count))
            return behavior(method: method, body: body, of: "/_sim/apps/<bundle id>", simulator: simulator) { behavior in
                simulator.setBehavior(behavior, forApp: bundleID)
                simulator.logger.info(
                    "app behavior set", metadata: ["bundle_id": "\(bundleID)", "behavior": "\(behavior.map { "\($0)" } ?? "none")"])
            }
        }
        let tokens = "/_sim/tokens/"
        if route.hasPrefix(tokens), !route.dropFirst(tokens.count).contains("/") {
            let hex = String(route.dropFirst(tokens.count))
            guard let token = PushToken(hex: hex) else { return problem(400, "'\(hex.prefix(80))' is not a device token in hex") }
            return behavior(method: method, body: body, of: "/_sim/tokens/<hex>", simulator: simulator) { behavior in
                simulator.setBehavior(behavior, for: token.hex)
                simulator.logger.info(
                    "token behavior set", metadata: ["token": "\(token.masked)", "behavior": "\(behavior.map { "\($0)" } ?? "none")"])
            }
        }
        return problem(
            404,
            "no simulator endpoint \(method) \(route.prefix(80)): see /_sim/pushes, /_sim/tokens/<hex>, /_sim/broadcasts, /_sim/channels, /_sim/apps/<bundle id>, /_sim/settings and /_sim/faults"
        )
    }

    /// GET shows the run-time settings; PUT changes those the body names.
    private static func settings(method: String, body: [UInt8], simulator: APNsSimulator) -> APNsSimulator.Answer {
        switch method {
        case "GET": return json(200, simulator.settingsJSON)
        case "PUT":
            do throws(ControlRequestError) {
                let body = try ControlBody(body, example: #"{"latency_ms":50,"max_streams":100}"#, known: ["latency_ms", "max_streams"])
                let latency = try body.integer("latency_ms", in: 0...600_000)
                // RFC 9113 allows 0; the simulator keeps at least one stream so that pushes can still go out.
                let streams = try body.integer("max_streams", in: 1...Int(Int32.max))
                guard latency != nil || streams != nil else { throw ControlRequestError("give latency_ms, max_streams or both") }
                if let latency { simulator.setLatency(.milliseconds(Int64(latency))) }
                if let streams { simulator.setMaximumConcurrentStreams(streams) }
                return json(200, simulator.settingsJSON)
            } catch {
                return problem(400, error.description)
            }
        default: return problem(405, "/_sim/settings takes GET or PUT")
        }
    }

    /// PUT sets the behavior the body describes, DELETE clears it (`set(nil)`).
    private static func behavior(
        method: String, body: [UInt8], of route: String, simulator: APNsSimulator, set: (SimulatedBehavior?) -> Void
    ) -> APNsSimulator.Answer {
        switch method {
        case "PUT":
            let behavior: SimulatedBehavior
            do { behavior = try SimulatedBehavior(controlJSON: body) } catch { return problem(400, error.description) }
            set(behavior)
            return json(200, behavior.controlJSON)
        case "DELETE":
            set(nil)
            return noContent
        default: return problem(405, "\(route) takes PUT or DELETE")
        }
    }

    static let noContent = APNsSimulator.Answer(status: 204, body: [])

    static func json(_ status: Int, _ value: JSONValue) -> APNsSimulator.Answer {
        APNsSimulator.Answer(status: status, body: value.serialized())
    }

    static func problem(_ status: Int, _ message: String) -> APNsSimulator.Answer {
        json(status, .object(["error": .string(message)]))
    }
}
