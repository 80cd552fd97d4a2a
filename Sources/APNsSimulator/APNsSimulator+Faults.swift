import APNsCore
import NIOConcurrencyHelpers

/// Faults of the transport, on top of APNs's answers: streams reset, connections closed mid-answer,
/// GOAWAY after some streams, TLS handshakes refused. A sender must come through each without losing
/// a push or counting one twice. The control API sets the same faults (`/_sim/faults`, see
/// `SimulatorControl`).
extension APNsSimulator {
    /// The next `times` pushes to `deviceToken` that pass APNs's checks meet `fault` instead of their
    /// answer (nil `times`: every push, until cleared); a nil fault clears the token's.
    package func setFault(_ fault: SimulatedFault?, for deviceToken: String, times: Int? = 1) {
        precondition(times.map { $0 > 0 } ?? true, "times must be positive")
        state.withLockedValue { state in
            state.faults.byToken[deviceToken.lowercased()] = fault.map { ($0, times) }
        }
    }

    /// Every `n`-th push that passes APNs's checks (counted across connections) meets `fault`, `times`
    /// times in all (nil: until cleared); a nil fault clears it.
    package func setFault(_ fault: SimulatedFault?, everyNthPush n: Int, times: Int? = nil) {
        precondition(n > 0 && (times.map { $0 > 0 } ?? true), "n and times must be positive")
        state.withLockedValue { state in
            state.faults.periodic = fault.map { ($0, n, times) }
            state.faults.pushesChecked = 0
        }
    }

    /// Connections send GOAWAY after some streams (`GoAwayFault`); nil stops it.
    package func setGoAway(_ goAway: GoAwayFault?) {
        precondition(goAway.map { $0.afterStreams > 0 && ($0.connections ?? 1) > 0 } ?? true, "counts must be positive")
        state.withLockedValue { $0.faults.goAway = goAway }
    }

    /// New connections have their TLS handshake refused (`TLSRefusal`); nil stops it.
    package func setTLSRefusal(_ refusal: TLSRefusal?) {
        state.withLockedValue { $0.faults.tlsRefusal = refusal }
    }

    /// Clears every fault; what they did (`faultReport`) is kept.
    package func clearFaults() {
        state.withLockedValue { state in
            let report = state.faults.report
            state.faults = SimulatedFaults()
            state.faults.report = report
        }
    }

    /// What the faults did so far.
    package var faultReport: SimulatedFaultReport { state.withLockedValue { $0.faults.report } }

    /// Whether a connection that has just processed its `processed`-th push stream goes away now.
    func goesAway(afterProcessing processed: Int) -> Bool {
        state.withLockedValue { $0.faults.goesAway(afterProcessing: processed) }
    }

    /// `GET /_sim/faults`: the faults set now and what they did so far.
    var faultsJSON: JSONValue {
        state.withLockedValue { state in
            let faults = state.faults
            let tokens = faults.byToken.sorted { $0.key < $1.key }.map { token, entry in
                (key: token, value: entry.fault.controlJSON(times: entry.remaining))
            }
            let every = faults.periodic.map { $0.fault.controlJSON(every: $0.every, times: $0.remaining) } ?? .null
            return .object([
                "tokens": .object(JSONObject(tokens)), "streams": every,
                "goaway": faults.goAway?.controlJSON ?? .null, "tls": faults.pendingTLSRefusal?.controlJSON ?? .null,
                "report": faults.report.controlJSON,
            ])
        }
    }
}
