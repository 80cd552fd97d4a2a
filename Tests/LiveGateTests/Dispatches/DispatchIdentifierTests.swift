import Foundation
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("Dispatch ids: version-7 UUIDs")
struct DispatchIdentifierTests {
    @Test func carriesVersion7TheVariantAndTheAcceptanceMillisecond() {
        let acceptedAt = Date(timeIntervalSince1970: 1_795_000_000.123_9)
        let bytes = withUnsafeBytes(of: DispatchIdentifier.make(acceptedAt: acceptedAt).uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_000_000_123)
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
    }

    /// What the primary key gains: ids sort in acceptance order across milliseconds.
    @Test func idsOfLaterMillisecondsSortAfter() {
        // Mid-millisecond instants, so no two fall in the same millisecond, where order is random.
        let ids = (0..<200).map { step in
            let milliseconds = Double(1_795_000_000_000 + 2 * step) + 0.5
            return DispatchIdentifier.make(acceptedAt: Date(timeIntervalSince1970: milliseconds / 1000)).lowercasedTextForSorting
        }
        #expect(ids == ids.sorted())
    }

    @Test func idsOfTheSameMillisecondDoNotRepeat() {
        let now = Date()
        let ids = Set((0..<20_000).map { _ in DispatchIdentifier.make(acceptedAt: now) })
        #expect(ids.count == 20_000)
    }
}

extension UUID {
    /// PostgreSQL orders uuids by their bytes, as this text sorts.
    fileprivate var lowercasedTextForSorting: String { uuidString.lowercased() }
}
