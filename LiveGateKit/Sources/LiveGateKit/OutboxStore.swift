import Foundation

/// What the SDK keeps on disk, in one JSON file of the storage folder written atomically: the reports
/// not sent yet, the last token registration of each tag and type (sent again when the user changes),
/// the tag of each activity it follows (for `resumeActivities`), and the user.
@available(iOS 16.0, macOS 13.0, *)
struct OutboxState: Codable, Sendable, Equatable {
    var pending: [Report] = []
    var registrations: [Report] = []
    var activityTags: [String: String] = [:]
    var externalID: String?
}

@available(iOS 16.0, macOS 13.0, *)
struct OutboxStore: Sendable {
    let file: URL

    init(folder: URL) {
        file = folder.appendingPathComponent("outbox.json")
    }

    func load() throws -> OutboxState {
        guard FileManager.default.fileExists(atPath: file.path) else { return OutboxState() }
        return try JSONDecoder().decode(OutboxState.self, from: Data(contentsOf: file))
    }

    func save(_ state: OutboxState) throws {
        try JSONEncoder().encode(state).write(to: file, options: .atomic)
    }
}
