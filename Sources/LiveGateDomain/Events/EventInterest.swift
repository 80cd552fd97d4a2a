import Foundation

/// Which events anyone subscribes to: nothing is written that no webhook endpoint takes and no pull
/// reader (a key with `events.read`) could read. Answered from memory, refreshed every few seconds, so
/// asking costs nothing on the hot path.
package protocol EventInterest: Sendable {
    func wants(_ type: EventType, workspaceID: UUID, appID: UUID?) -> Bool
}

/// Who subscribes to what, as one snapshot: per workspace, whether every type is read (a key with
/// `events.read` exists) and the types each endpoint takes, for every app or one.
package struct EventSubscriptions: Sendable, EventInterest {
    package struct Workspace: Sendable {
        package var everything = false
        /// The types taken for every app of the workspace.
        package var allApps: Set<EventType> = []
        /// The types taken for one app.
        package var byApp: [UUID: Set<EventType>] = [:]

        package init() {}
    }

    package var workspaces: [UUID: Workspace]

    package init(workspaces: [UUID: Workspace] = [:]) {
        self.workspaces = workspaces
    }

    package static let none = EventSubscriptions()

    package var isEmpty: Bool { workspaces.isEmpty }

    package func wants(_ type: EventType, workspaceID: UUID, appID: UUID?) -> Bool {
        guard let workspace = workspaces[workspaceID] else { return false }
        if workspace.everything || workspace.allApps.contains(type) { return true }
        guard let appID else { return false }
        return workspace.byApp[appID]?.contains(type) == true
    }
}
