import APNsClient
import APNsSimulator
import Foundation
import Testing
import TestSupport

/// APNs names every push it answers: the sender's `apns-id`, or one it makes up. The simulator makes its
/// own without Foundation's `UUID()` (too slow per push), so check they still are what APNs sends.
@Suite("APNs simulator's own apns-ids", .requiresPostgres)
struct APNsSimulatorAPNsIDTests {
    @Test func aPushWithoutAnIDGetsAFreshVersion4UUIDInLowerCase() async throws {
        try await APNsSimulatorControlTests.withSimulator { _, _, _, control in
            let token = String(repeating: "0a", count: 32)
            var ids: [String] = []
            for _ in 0..<20 {
                let answer = try await control.request("POST", "/3/device/\(token)", body: #"{"aps":{}}"#)
                #expect(answer.status == 403)
                let id = try #require(answer.headers["apns-id"])
                #expect(UUID(uuidString: id) != nil, "\(id)")
                #expect(id == id.lowercased())
                // Version 4 (random), RFC 4122 variant: 8-4-4-4-12 digits, "4" and one of 8, 9, a, b leading groups 3 and 4.
                let groups = id.split(separator: "-")
                #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(id)")
                #expect(groups.count == 5 && groups[2].first == "4", "\(id)")
                #expect(groups.count == 5 && "89ab".contains(groups[3].first ?? "x"), "\(id)")
                ids.append(id)
            }
            #expect(Set(ids).count == ids.count)
        }
    }
}
