import APNsClient
import Testing

/// An answer's header fields, as a caller reads them: by name, each name once, in any order.
@Suite("An answer's header fields")
struct HTTP2HeadersTests {
    @Test func readsEachFieldByName() {
        var headers = HTTP2Headers()
        #expect(headers.isEmpty && headers.count == 0 && headers["apns-id"] == nil)
        headers["apns-id"] = "a"
        headers["retry-after"] = "5"
        headers["apns-request-id"] = "r"
        #expect(headers.count == 3 && !headers.isEmpty)
        #expect(headers["apns-id"] == "a" && headers["retry-after"] == "5" && headers["apns-request-id"] == "r")
        #expect(headers["apns-topic"] == nil)
        #expect(headers.map(\.name) == ["apns-id", "retry-after", "apns-request-id"], "in the order they came")
    }

    @Test func settingANameAgainReplacesItsValue() {
        var headers: HTTP2Headers = ["apns-id": "a", "retry-after": "5"]
        headers["apns-id"] = "b"
        headers["retry-after"] = "7"
        #expect(headers.count == 2)
        #expect(headers["apns-id"] == "b" && headers["retry-after"] == "7")
    }

    @Test func settingNilRemovesTheField() {
        var headers: HTTP2Headers = ["apns-id": "a", "retry-after": "5", "apns-request-id": "r"]
        headers["apns-id"] = nil
        #expect(headers.count == 2 && headers["apns-id"] == nil)
        #expect(headers["retry-after"] == "5" && headers["apns-request-id"] == "r")
        headers["apns-request-id"] = nil
        #expect(headers.map(\.name) == ["retry-after"])
        headers["retry-after"] = nil
        #expect(headers.isEmpty)
        headers["absent"] = nil
        #expect(headers.isEmpty)
        headers["apns-id"] = "c"
        #expect(headers.map(\.value) == ["c"])
    }

    @Test func equalWithTheSameFieldsInAnyOrder() {
        let one: HTTP2Headers = ["apns-id": "a", "retry-after": "5"]
        let other: HTTP2Headers = ["retry-after": "5", "apns-id": "a"]
        #expect(one == other)
        #expect(one != ["apns-id": "a"])
        #expect(one != ["apns-id": "a", "retry-after": "6"])
        #expect(one != ["apns-id": "a", "apns-request-id": "5"])
        #expect(HTTP2Headers() == [:])
    }

    @Test func describesItsFields() {
        let headers: HTTP2Headers = ["apns-id": "a"]
        #expect(headers.description == #"["apns-id": "a"]"#)
    }
}
