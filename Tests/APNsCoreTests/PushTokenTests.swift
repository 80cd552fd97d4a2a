import APNsCore
import Testing

@Suite("Push tokens")
struct PushTokenTests {
    @Test func hexDigitsInEitherCaseAreKeptLowerCase() throws {
        let lower = String(repeating: "0a1b2c3d", count: 8)
        #expect(try #require(PushToken(hex: lower)).hex == lower)
        #expect(try #require(PushToken(hex: lower.uppercased())).hex == lower)
        #expect(try #require(PushToken(hex: "0A1b2C3d")).hex == "0a1b2c3d")
    }

    @Test(arguments: ["", "abc", "0g", "ab cd", "ab\u{e9}", "é1", String(repeating: "ab", count: PushToken.maximumBytes + 1)])
    func anythingButAnEvenNumberOfHexDigitsIsRefused(_ text: String) {
        #expect(PushToken(hex: text) == nil)
    }

    @Test func theLongestTokenIsTaken() {
        #expect(PushToken(hex: String(repeating: "ab", count: PushToken.maximumBytes)) != nil)
    }

    @Test func itsDescriptionShowsOnlyTheLastEightDigits() throws {
        let token = try #require(PushToken(hex: String(repeating: "0", count: 56) + "deadbeef"))
        #expect("\(token)" == "…deadbeef")
    }
}
