import Foundation
import LiveGateKit

/// A LiveGate over a recording transport, in a storage folder of its own.
enum SDKFixture {
    static func liveGate(
        _ transport: RecordingTransport, folder: URL = newFolder(), retry: RetryPolicy = RetryPolicy(),
        firstTokenWait: Duration = .seconds(3600)
    ) throws -> LiveGate {
        try LiveGate(
            configuration: .init(
                gatewayURL: URL(string: "http://127.0.0.1:9")!, appID: "app-1", deviceID: "device-1", storageFolder: folder,
                retry: retry, firstTokenWait: firstTokenWait, transport: transport))
    }

    static func newFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("livegatekit-\(UUID().uuidString)")
    }

    static func token(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    static func hex(_ byte: UInt8) -> String { String(repeating: String(format: "%02x", byte), count: 32) }
}
