import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Logging
import NIOConcurrencyHelpers
import Testing

@Suite("Log lines")
struct LineLogHandlerTests {
    @Test func writesOneLineWithLoggerAndEventMetadataSorted() throws {
        let lines = NIOLockedValueBox([String]())
        var logger = Logger(label: "livegate") { label in
            LineLogHandler(label: label, metadataProvider: nil) { line in lines.withLockedValue { $0.append(line) } }
        }
        logger[metadataKey: "workspace_id"] = "w-1"
        logger[metadataKey: "api_key_id"] = "k-1"
        logger.debug("below the level: not written")
        logger.info("accepted", metadata: ["dispatch_id": "d-1", "workspace_id": "w-2"])
        let written = lines.withLockedValue { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix(" info livegate: api_key_id=k-1 dispatch_id=d-1 workspace_id=w-2 [LiveGateTests] accepted\n"))
        // An ISO-8601 UTC timestamp leads the line.
        #expect(line.prefix(24).hasSuffix("+0000"))
    }
}
