import APNsCore

extension SimulatedFault {
    static let names = ["reset_stream", "close_before_answer", "close_after_headers"]

    /// `{"fault":"reset_stream","error_code":"REFUSED_STREAM"}` (error_code: RFC 9113's name, default
    /// INTERNAL_ERROR), `{"fault":"close_before_answer"}` or `{"fault":"close_after_headers"}`.
    init(control body: ControlBody) throws(ControlRequestError) {
        switch try body.string("fault") {
        case "reset_stream":
            guard let name = try body.string("error_code") else {
                self = .resetStream(.internalError)
                return
            }
            guard let code = HTTP2ResetCode(name: name) else {
                throw ControlRequestError("error_code must be an HTTP/2 error code such as REFUSED_STREAM or INTERNAL_ERROR")
            }
            self = .resetStream(code)
        case "close_before_answer" where !body.has("error_code"):
            self = .closeBeforeAnswer
        case "close_after_headers" where !body.has("error_code"):
            self = .closeAfterHeaders
        case let name?:
            guard Self.names.contains(name) else {
                throw ControlRequestError("fault must be one of \(Self.names.joined(separator: ", ")), got '\(name.prefix(40))'")
            }
            throw ControlRequestError("error_code goes only with reset_stream")
        case nil:
            throw ControlRequestError("give fault: \(Self.names.joined(separator: ", "))")
        }
    }

    /// As the control API shows it, `times` added when given.
    func controlJSON(times: Int?) -> JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch self {
        case .resetStream(let code): members = [("fault", .string("reset_stream")), ("error_code", .string(code.description))]
        case .closeBeforeAnswer: members = [("fault", .string("close_before_answer"))]
        case .closeAfterHeaders: members = [("fault", .string("close_after_headers"))]
        }
        if let times { members.append(("times", .integer(times))) }
        return .object(JSONObject(members))
    }

    /// As the control API shows a fault for every `n`-th push.
    func controlJSON(every n: Int, times: Int?) -> JSONValue {
        .object(JSONObject([("every", .integer(n))] + (controlJSON(times: times).objectValue?.members.map { ($0.key, $0.value) } ?? [])))
    }
}

extension GoAwayFault {
    /// `{"after_streams":100}`, for every connection, or `{"after_streams":100,"connections":2}`.
    init(control body: ControlBody) throws(ControlRequestError) {
        guard let afterStreams = try body.integer("after_streams", in: 1...1_000_000) else {
            throw ControlRequestError("give after_streams: the streams a connection carries before its GOAWAY")
        }
        self.init(afterStreams: afterStreams, connections: try body.integer("connections", in: 1...1_000_000))
    }

    var controlJSON: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("after_streams", .integer(afterStreams))]
        if let connections { members.append(("connections", .integer(connections))) }
        return .object(JSONObject(members))
    }
}

extension TLSRefusal {
    /// `{"connections":3}`: the next 3 connections; `{"for_ms":2000}`: every connection for 2 seconds.
    init(control body: ControlBody) throws(ControlRequestError) {
        switch (try body.integer("connections", in: 1...1_000_000), try body.integer("for_ms", in: 1...3_600_000)) {
        case (let connections?, nil): self = .connections(connections)
        case (nil, let milliseconds?): self = .during(.milliseconds(milliseconds))
        default: throw ControlRequestError("give either connections or for_ms")
        }
    }

    /// `{"connections":N}`, or `{"remaining_ms":N}` for a time window.
    var controlJSON: JSONValue {
        switch self {
        case .connections(let count): .object(["connections": .integer(count)])
        case .until(let end):
            .object(["remaining_ms": .integer(max(0, Int((end - .now) / .milliseconds(1))))])
        }
    }
}

extension SimulatedFaultReport {
    var controlJSON: JSONValue {
        .object([
            "connections": .integer(connections), "tls_refused": .integer(tlsRefused), "goaways_sent": .integer(goAwaysSent),
            "streams_reset": .integer(streamsReset), "closed_connections": .array(closedConnections.map { .integer($0) }),
        ])
    }
}
