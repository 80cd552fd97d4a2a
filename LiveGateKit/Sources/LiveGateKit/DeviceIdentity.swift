import Foundation

/// This install's device id: a UUID made on first use and kept in a file of the storage folder, so a
/// relaunch reports under the same device.
@available(iOS 16.0, macOS 13.0, *)
enum DeviceIdentity {
    static func load(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("device-id")
        if let saved = try? String(contentsOf: file, encoding: .utf8), !saved.isEmpty {
            return saved.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let made = UUID().uuidString
        try Data(made.utf8).write(to: file, options: .atomic)
        return made
    }
}
