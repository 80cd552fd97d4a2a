import APNsClient
import APNsCore
import APNsSimulator
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// The faults through the simulator's control API (`/_sim/faults…`), as a script or a test that runs
/// the simulator as a process of its own sets them.
@Suite("APNs simulator control API: faults")
struct APNsSimulatorFaultControlTests {
    static let token = String(repeating: "e7", count: 32)

    static func transportError(_ result: APNsSendResult) -> HTTP2TransportError.Code? {
        guard case .unreachable(let error) = result else { return nil }
        return error.code
    }

    @Test func aTokenFaultIsSetShownUsedUpAndListedWithThePush() async throws {
        try await APNsSimulatorControlTests.withSimulator { _, app, sender, control in
            let set = try await control.request(
                "PUT", "/_sim/faults/tokens/\(Self.token.uppercased())",
                body: #"{"fault":"reset_stream","error_code":"refused_stream","times":2}"#)
            #expect(set.status == 200)
            #expect(set.text == #"{"fault":"reset_stream","error_code":"REFUSED_STREAM","times":2}"#)
            #expect(
                try await control.request("GET", "/_sim/faults").text
                    == #"{"tokens":{"\#(Self.token)":{"fault":"reset_stream","error_code":"REFUSED_STREAM","times":2}},"streams":null,"goaway":null,"tls":null,"report":{"connections":1,"tls_refused":0,"goaways_sent":0,"streams_reset":0,"closed_connections":[]}}"#
            )

            for _ in 0..<2 {
                #expect(Self.transportError(await sender.send(APNsSimulatorTests.push(Self.token), app: app)) == .lostAfterSending)
            }
            #expect(await sender.send(APNsSimulatorTests.push(Self.token), app: app) == APNsSimulatorControlTests.delivered)
            let faults = try await control.request("GET", "/_sim/faults").text
            #expect(faults.hasPrefix(#"{"tokens":{},"streams":null,"goaway":null,"tls":null,"report":{"connections":"#), "\(faults)")
            #expect(faults.hasSuffix(#","tls_refused":0,"goaways_sent":0,"streams_reset":2,"closed_connections":[]}}"#), "\(faults)")
            let pushes = try await control.pushes()
            #expect(pushes.count == 1, "refused streams are not processed")
            #expect(pushes.first?["fault"] == nil)
            #expect((pushes.first?["connection"] as? Int ?? 0) > 1 && (pushes.first?["stream"] as? Int ?? 0) > 0)
        }
    }

    @Test func aPushWhoseConnectionWasClosedIsListedWithItsFault() async throws {
        try await APNsSimulatorControlTests.withSimulator { _, app, sender, control in
            let set = try await control.request("PUT", "/_sim/faults/tokens/\(Self.token)", body: #"{"fault":"close_before_answer"}"#)
            #expect(set.text == #"{"fault":"close_before_answer","times":1}"#)
            let result = await sender.send(APNsSimulatorTests.push(Self.token), app: app)
            #expect([.connectionLost, .lostAfterSending].contains(Self.transportError(result)), "\(result)")
            let pushes = try await control.pushes()
            #expect(pushes.count == 1)
            #expect((pushes.first?["fault"] as? [String: String]) == ["fault": "close_before_answer"])
            let connection = try #require(pushes.first?["connection"] as? Int)
            #expect(try await control.request("GET", "/_sim/faults").text.contains(#""closed_connections":[\#(connection)]"#))
        }
    }

    @Test func connectionFaultsAreSetShownAndCleared() async throws {
        try await APNsSimulatorControlTests.withSimulator { _, app, sender, control in
            #expect(
                try await control.request("PUT", "/_sim/faults/goaway", body: #"{"after_streams":2,"connections":1}"#).text
                    == #"{"after_streams":2,"connections":1}"#)
            #expect(
                try await control.request("PUT", "/_sim/faults/streams", body: #"{"every":4,"fault":"close_after_headers"}"#).text
                    == #"{"every":4,"fault":"close_after_headers"}"#)
            // The control client's connection is open already: the refusal is for the sender's.
            #expect(try await control.request("PUT", "/_sim/faults/tls", body: #"{"connections":1}"#).text == #"{"connections":1}"#)
            let window = try await control.request("PUT", "/_sim/faults/tls", body: #"{"for_ms":60000}"#)
            #expect(window.text.hasPrefix(#"{"remaining_ms":"#), "\(window.text)")
            #expect(try await control.request("PUT", "/_sim/faults/tls", body: #"{"connections":1}"#).status == 200)
            #expect(
                try await control.request("GET", "/_sim/faults").text
                    == #"{"tokens":{},"streams":{"every":4,"fault":"close_after_headers"},"goaway":{"after_streams":2,"connections":1},"tls":{"connections":1},"report":{"connections":1,"tls_refused":0,"goaways_sent":0,"streams_reset":0,"closed_connections":[]}}"#
            )

            #expect(Self.transportError(await sender.send(APNsSimulatorTests.push(Self.token), app: app)) == .tlsFailed)
            // Past the client's backoff after a refused handshake (100 ms), the next push tries again.
            try await Task.sleep(for: .milliseconds(150))
            #expect(await sender.send(APNsSimulatorTests.push(Self.token), app: app) == APNsSimulatorControlTests.delivered)
            #expect(await sender.send(APNsSimulatorTests.push(Self.token), app: app) == APNsSimulatorControlTests.delivered)
            let report = try await control.request("GET", "/_sim/faults").text
            #expect(report.contains(#""goaway":null,"tls":null"#) && report.contains(#""tls_refused":1,"goaways_sent":1"#), "\(report)")

            let cleared = try await control.request("DELETE", "/_sim/faults")
            #expect(cleared.status == 204 && cleared.body.isEmpty)
            let after = try await control.request("GET", "/_sim/faults").text
            #expect(after.hasPrefix(#"{"tokens":{},"streams":null,"goaway":null,"tls":null,"report":{"#), "\(after)")
            #expect(after.contains(#""tls_refused":1,"goaways_sent":1"#), "what the faults did is kept: \(after)")
            #expect(try await control.request("DELETE", "/_sim/faults/goaway").status == 204)
        }
    }

    /// Each refused with a message saying what to send instead; none changes anything.
    static let badRequests: [(method: String, path: String, body: String?, status: Int, answer: String)] = [
        ("PUT", "/_sim/faults/tokens/zz", #"{"fault":"close_before_answer"}"#, 400, #"{"error":"'zz' is not a device token in hex"}"#),
        (
            "PUT", "/_sim/faults/tokens/aabb", "[]", 400,
            #"{"error":"the body must be a JSON object such as {\"fault\":\"close_before_answer\"}"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"fault":"explode"}"#, 400,
            #"{"error":"fault must be one of reset_stream, close_before_answer, close_after_headers, got 'explode'"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"times":2}"#, 400,
            #"{"error":"give fault: reset_stream, close_before_answer, close_after_headers"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"fault":"reset_stream","error_code":"OOPS"}"#, 400,
            #"{"error":"error_code must be an HTTP/2 error code such as REFUSED_STREAM or INTERNAL_ERROR"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"fault":"close_after_headers","error_code":"CANCEL"}"#, 400,
            #"{"error":"error_code goes only with reset_stream"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"fault":"close_before_answer","times":0}"#, 400,
            #"{"error":"times must be an integer from 1 to 1000000"}"#
        ),
        (
            "PUT", "/_sim/faults/tokens/aabb", #"{"fault":"close_before_answer","delay_ms":5}"#, 400,
            #"{"error":"unknown field 'delay_ms': use times, fault, error_code"}"#
        ),
        ("PUT", "/_sim/faults/streams", #"{"fault":"close_before_answer"}"#, 400, #"{"error":"give every: which pushes meet the fault"}"#),
        ("PUT", "/_sim/faults/goaway", #"{"after_streams":0}"#, 400, #"{"error":"after_streams must be an integer from 1 to 1000000"}"#),
        (
            "PUT", "/_sim/faults/goaway", "{}", 400,
            #"{"error":"give after_streams: the streams a connection carries before its GOAWAY"}"#
        ),
        ("PUT", "/_sim/faults/tls", #"{"connections":1,"for_ms":10}"#, 400, #"{"error":"give either connections or for_ms"}"#),
        ("PUT", "/_sim/faults/tls", #"{"for_ms":"soon"}"#, 400, #"{"error":"for_ms must be an integer from 1 to 3600000"}"#),
        ("GET", "/_sim/faults/tls", nil, 405, #"{"error":"/_sim/faults/tls takes PUT or DELETE"}"#),
        ("PUT", "/_sim/faults", "{}", 405, #"{"error":"/_sim/faults takes GET or DELETE"}"#),
    ]

    @Test func badRequestsAreRefusedWithWhatToSend() async throws {
        try await APNsSimulatorControlTests.withSimulator { _, _, _, control in
            let before = try await control.request("GET", "/_sim/faults").text
            for request in Self.badRequests {
                let response = try await control.request(request.method, request.path, body: request.body)
                #expect(response.status == request.status, "\(request.method) \(request.path)")
                #expect(response.text == request.answer, "\(request.method) \(request.path) \(request.body ?? "")")
            }
            #expect(try await control.request("GET", "/_sim/faults").text == before)
        }
    }
}
