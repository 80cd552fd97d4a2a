import APNsClient
import APNsCore
import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

/// `livegate serve` delivering a fan-out to `livegate apns-sim`, two processes over real sockets, while
/// a script breaks APNs through the simulator's control API, as docs/operating/apns-faults.md shows.
@Suite("livegate serve through APNs faults", .heavy, .requiresPostgres)
struct APNsFaultServeTests {
    static let devices = (0..<300).map { token(numbered: $0) }
    /// The device whose answer is cut off after its 200 headers.
    static let cutOff = token(numbered: 40)

    /// Two streams reset after APNs took them, one answer cut off after its 200 headers, then, part-way,
    /// every connection goes away and no handshake succeeds for 1.5 s. Once APNs is back every device
    /// has the update, a second time only after a copy whose answer was lost; the dispatch resource
    /// counts 300 sent, the metrics one 200 per device, and the activity log has nothing.
    @Test func aFanOutThroughResetsGoAwaysAndAnOutageServesEveryDevice() async throws {
        try await ServedFanOut.run(
            devices: Self.devices, simulatorOptions: [],
            environment: ["LIVEGATE_DELIVERY_PAGE_SIZE": "100", "LIVEGATE_DELIVERY_MAX_IN_FLIGHT": "64"],
            prepare: { (control: SimulatorControlClient) async throws in
                // Answers after 200 ms keep the fan-out under way (about a second) when the faults strike.
                for device in Self.devices {
                    #expect(try await control.request("PUT", "/_sim/tokens/\(device)", body: #"{"delay_ms":200}"#).status == 200)
                }
                #expect(
                    try await control.request(
                        "PUT", "/_sim/faults/streams", body: #"{"every":70,"fault":"reset_stream","error_code":"INTERNAL_ERROR","times":2}"#
                    ).status == 200)
                #expect(
                    try await control.request("PUT", "/_sim/faults/tokens/\(Self.cutOff)", body: #"{"fault":"close_after_headers"}"#).status
                        == 200)
            }
        ) { fanOut in
            let control = fanOut.control
            try await DeliveryCrashTests.waitUntil("the fan-out is under way") { try await control.pushes().count >= 20 }
            // The next connection, the first the gateway opens after a GOAWAY, is refused: a time window
            // could end before a slow machine's gateway reconnects, and then test nothing.
            #expect(try await control.request("PUT", "/_sim/faults/tls", body: #"{"connections":1}"#).status == 200)
            // Each of the gateway's connections (at most 4) goes away after its next push.
            #expect(try await control.request("PUT", "/_sim/faults/goaway", body: #"{"after_streams":1,"connections":4}"#).status == 200)

            let (counts, text) = try await fanOut.waitUntilDone(timeout: .seconds(90))
            #expect(counts["sent"] as? Int == Self.devices.count, "\(text)")
            #expect(counts["failed"] as? Int == 0 && counts["removed"] as? Int == 0, "\(text)")
            let retried = try #require(counts["retried"] as? Int)
            #expect(retried >= 2, "\(text)")

            let faults = try await control.request("GET", "/_sim/faults")
            #expect(
                faults.text.contains(#""streams":null,"#) && faults.text.contains(#""tls":null,"#), "the faults are over: \(faults.text)")
            #expect(!faults.text.contains(#""tls_refused":0,"#) && faults.text.contains(#""streams_reset":2,"#), "\(faults.text)")
            let report = try #require(
                (try JSONSerialization.jsonObject(with: Data(faults.body)) as? [String: Any])?["report"] as? [String: Any])
            let closed = Set(try #require(report["closed_connections"] as? [Int]))
            #expect(closed.count == 1)

            // Every device has the update; one has it again only after a copy whose answer may have been
            // lost (reset, or on the connection closed), never after one answered 200 (the cut-off 200).
            let pushes = try await control.pushes()
            let copies = Dictionary(grouping: pushes) { $0["device_token"] as? String ?? "" }
            #expect(Set(copies.keys) == Set(Self.devices))
            #expect(copies[Self.cutOff]?.count == 1)
            for (device, copies) in copies {
                let unexplained = copies.dropLast().filter { copy in
                    let fault = (copy["fault"] as? [String: String])?["fault"]
                    return fault != "reset_stream" && (fault == "close_after_headers" || !closed.contains(copy["connection"] as? Int ?? 0))
                }
                #expect(unexplained.isEmpty, "\(device.suffix(8)) arrived \(copies.count) times: \(copies)")
            }
            #expect(
                pushes.filter { $0["fault"] as? [String: String] == ["fault": "reset_stream", "error_code": "INTERNAL_ERROR"] }.count == 2)

            // The gateway saw one 200 per device (the cut-off one included), and no answer on every try it retried.
            let after = try await PrometheusScrape.scrape("\(fanOut.base)/metrics")
            #expect(
                after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "200"], since: fanOut.metricsBefore)
                    == Double(Self.devices.count))
            #expect(
                after.delta("livegate_apns_pushes_total", ["kind": "device", "status": "none"], since: fanOut.metricsBefore)
                    == Double(retried))

            let log = try await CurlHTTPClient.request("GET", fanOut.base + "/message_activity_log", headers: fanOut.auth)
            #expect(log.status == 200)
            #expect((log.json?["entries"] as? [Any])?.isEmpty == true, "\(log.text)")
        }
    }
}
