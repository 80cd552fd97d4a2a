/// The faults set on a simulator, and what they did; kept under the simulator's lock.
struct SimulatedFaults {
    /// By device token: the fault, and how many more pushes get it (nil: every one).
    var byToken: [String: (fault: SimulatedFault, remaining: Int?)] = [:]
    /// Every n-th push gets the fault, `remaining` more times (nil: until cleared).
    var periodic: (fault: SimulatedFault, every: Int, remaining: Int?)?
    var goAway: GoAwayFault?
    var tlsRefusal: TLSRefusal?
    /// Pushes that passed APNs's checks, counted for `periodic`.
    var pushesChecked = 0
    var report = SimulatedFaultReport()

    /// The fault for a push to `token`, on connection `connection`, that passed APNs's checks, if any;
    /// uses up one of its times.
    mutating func take(forPushTo token: String, connection: Int) -> SimulatedFault? {
        pushesChecked += 1
        if let (fault, remaining) = byToken[token] {
            byToken[token] = remaining.map { $0 > 1 ? (fault, $0 - 1) : nil } ?? (fault, nil)
            return counted(fault, connection: connection)
        }
        guard let (fault, every, remaining) = periodic, pushesChecked % every == 0 else { return nil }
        periodic = remaining.map { $0 > 1 ? (fault, every, $0 - 1) : nil } ?? (fault, every, nil)
        return counted(fault, connection: connection)
    }

    private mutating func counted(_ fault: SimulatedFault, connection: Int) -> SimulatedFault {
        switch fault {
        case .resetStream: report.streamsReset += 1
        case .closeBeforeAnswer, .closeAfterHeaders: report.closedConnections.append(connection)
        }
        return fault
    }

    /// Whether a connection that has just processed its `processed`-th stream sends its GOAWAY now.
    mutating func goesAway(afterProcessing processed: Int) -> Bool {
        guard let fault = goAway, processed >= fault.afterStreams else { return false }
        if let connections = fault.connections {
            goAway = connections > 1 ? GoAwayFault(afterStreams: fault.afterStreams, connections: connections - 1) : nil
        }
        report.goAwaysSent += 1
        return true
    }

    /// The TLS refusal still to come: nil once its window has passed.
    var pendingTLSRefusal: TLSRefusal? {
        if case .until(let end)? = tlsRefusal, end <= .now { return nil }
        return tlsRefusal
    }

    /// Whether a connection opened now has its TLS handshake refused.
    mutating func refusesTLS(now: ContinuousClock.Instant) -> Bool {
        switch tlsRefusal {
        case .connections(let count)?:
            tlsRefusal = count > 1 ? .connections(count - 1) : nil
        case .until(let end)? where now < end:
            break
        case .until?, nil:
            tlsRefusal = nil
            return false
        }
        report.tlsRefused += 1
        return true
    }
}

/// What the simulator's faults did so far (`APNsSimulator.faultReport`, `GET /_sim/faults`).
package struct SimulatedFaultReport: Sendable, Equatable {
    /// Connections the simulator accepted, numbered from 1 in that order (`SimulatedPush.connection`).
    package var connections = 0
    /// Connections whose TLS handshake it refused.
    package var tlsRefused = 0
    package var goAwaysSent = 0
    package var streamsReset = 0
    /// Connections it closed for `closeBeforeAnswer` or `closeAfterHeaders`, by number: a push
    /// recorded on one of them may have lost its answer.
    package var closedConnections: [Int] = []

    package init() {}
}
