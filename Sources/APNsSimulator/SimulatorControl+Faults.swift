import APNsCore
import Logging

/// The control API's faults (`SimulatedFault`, `GoAwayFault`, `TLSRefusal`):
/// - `GET /_sim/faults`: the faults set and what they did so far; `DELETE /_sim/faults` clears them all.
/// - `PUT /_sim/faults/tokens/<hex>` with `{"fault":"reset_stream","error_code":"REFUSED_STREAM","times":2}`,
///   `{"fault":"close_before_answer"}` or `{"fault":"close_after_headers"}`: the next push (or `times`
///   pushes) to that token meet the fault; `DELETE` clears it.
/// - `PUT /_sim/faults/streams` with `{"every":50,"fault":…,"times":3}`: every 50th push, 3 times in all
///   (without `times`, until cleared).
/// - `PUT /_sim/faults/goaway` with `{"after_streams":100,"connections":1}` (without `connections`,
///   every connection).
/// - `PUT /_sim/faults/tls` with `{"connections":3}` or `{"for_ms":2000}`.
extension SimulatorControl {
    /// The answer for a route under `/_sim/faults`, or nil for another route.
    static func faults(method: String, route: Substring, body: [UInt8], simulator: APNsSimulator) -> APNsSimulator.Answer? {
        let tokens = "/_sim/faults/tokens/"
        switch route {
        case "/_sim/faults":
            switch method {
            case "GET": return json(200, simulator.faultsJSON)
            case "DELETE":
                simulator.clearFaults()
                simulator.logger.info("faults cleared")
                return noContent
            default: return problem(405, "\(route) takes GET or DELETE")
            }
        case "/_sim/faults/streams":
            let example = #"{"every":50,"fault":"reset_stream"}"#
            return set(method, route, body, simulator, example: example, known: ["every", "times"] + faultFields) {
                body throws(ControlRequestError) in
                let fault = try SimulatedFault(control: body)
                guard let every = try body.integer("every", in: 1...1_000_000) else {
                    throw ControlRequestError("give every: which pushes meet the fault")
                }
                let times = try body.integer("times", in: 1...1_000_000)
                simulator.setFault(fault, everyNthPush: every, times: times)
                return fault.controlJSON(every: every, times: times)
            } clear: {
                simulator.setFault(nil, everyNthPush: 1)
            }
        case "/_sim/faults/goaway":
            let example = #"{"after_streams":100}"#
            return set(method, route, body, simulator, example: example, known: ["after_streams", "connections"]) {
                body throws(ControlRequestError) in
                let goAway = try GoAwayFault(control: body)
                simulator.setGoAway(goAway)
                return goAway.controlJSON
            } clear: {
                simulator.setGoAway(nil)
            }
        case "/_sim/faults/tls":
            let example = #"{"connections":3}"#
            return set(method, route, body, simulator, example: example, known: ["connections", "for_ms"]) {
                body throws(ControlRequestError) in
                let refusal = try TLSRefusal(control: body)
                simulator.setTLSRefusal(refusal)
                return refusal.controlJSON
            } clear: {
                simulator.setTLSRefusal(nil)
            }
        case _ where route.hasPrefix(tokens) && !route.dropFirst(tokens.count).contains("/"):
            let hex = String(route.dropFirst(tokens.count))
            guard let token = PushToken(hex: hex) else { return problem(400, "'\(hex.prefix(80))' is not a device token in hex") }
            let example = #"{"fault":"close_before_answer"}"#
            return set(method, route, body, simulator, example: example, known: ["times"] + faultFields) {
                body throws(ControlRequestError) in
                let fault = try SimulatedFault(control: body)
                let times = try body.integer("times", in: 1...1_000_000) ?? 1
                simulator.setFault(fault, for: token.hex, times: times)
                return fault.controlJSON(times: times)
            } clear: {
                simulator.setFault(nil, for: token.hex)
            }
        default:
            return nil
        }
    }

    private static let faultFields = ["fault", "error_code"]

    /// PUT sets what the body says and answers it as set; DELETE clears it.
    private static func set(
        _ method: String, _ route: Substring, _ body: [UInt8], _ simulator: APNsSimulator, example: String, known: [String],
        _ apply: (ControlBody) throws(ControlRequestError) -> JSONValue, clear: () -> Void
    ) -> APNsSimulator.Answer {
        switch method {
        case "PUT":
            do throws(ControlRequestError) {
                let shown = try apply(try ControlBody(body, example: example, known: known))
                let text = String(decoding: shown.serialized(), as: UTF8.self)
                simulator.logger.info("fault set", metadata: ["route": "\(route)", "fault": "\(text)"])
                return json(200, shown)
            } catch {
                return problem(400, error.description)
            }
        case "DELETE":
            clear()
            return noContent
        default:
            return problem(405, "\(route) takes PUT or DELETE")
        }
    }
}
