import Foundation
import Testing

@testable import LiveGateKit

/// What an error says of the gateway's answer: its message, and its first error when the message does
/// not already say it.
@Suite("LiveGateKit's error messages")
struct GatewayMessageTests {
    @Test func aMessageThatAlreadyEndsWithItsErrorSaysItOnce() {
        let body =
            #"{"message":"Invalid request: tag must be at most 256 characters, got 337","errors":["tag must be at most 256 characters, got 337"]}"#
        #expect(ReportSender.message(Data(body.utf8)) == "Invalid request: tag must be at most 256 characters, got 337")
    }

    @Test func aMessageAndADifferentErrorAreBothSaid() {
        let body = #"{"message":"Invalid request","errors":["app_id is required"]}"#
        #expect(ReportSender.message(Data(body.utf8)) == "Invalid request: app_id is required")
        #expect(ReportSender.message(Data(#"{"errors":["app_id is required"]}"#.utf8)) == "app_id is required")
        #expect(ReportSender.message(Data("not json".utf8)) == nil)
    }
}
