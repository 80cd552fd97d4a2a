import Foundation

/// Which events anyone subscribes to: nothing is written that no webhook endpoint takes and no pull
/// reader (a key with `events.read`) could read. Answered from memory, refreshed every few seconds, so
/// asking costs nothing on the hot path.
package protocol EventInterest: Sendable {
    func wants(_ type: EventType, workspaceID: UUID, appID: UUID?) -> Bool
    /// Everyone who takes `type`, for a statement that writes the events of many workspaces at once
    /// (housekeeping's) and filters them in SQL.
    func subscribers(of type: EventType) -> EventSubscribers
}

/// Who takes one event type: the workspaces that take it for every app (every type read for pulling,
/// or an endpoint of all their apps), and the apps that take it through an endpoint of their own.
/// An event of workspace W and app A is wanted when W is among `workspaces` or A among `apps` (an
/// endpoint's app is always one of its workspace's).
package struct EventSubscribers: Sendable, Equatable {
    package var workspaces: Set<UUID> = []
    package var apps: Set<UUID> = []

    package init(workspaces: Set<UUID> = [], apps: Set<UUID> = []) {
        self.workspaces = workspaces
        self.apps = apps
    }

    package var isEmpty: Bool { workspaces.isEmpty && apps.isEmpty }
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

    package func subscribers(of type: EventType) -> EventSubscribers {
        var subscribers = EventSubscribers()
        for (id, workspace) in workspaces {
            if workspace.everything || workspace.allApps.contains(type) {
                subscribers.workspaces.insert(id)
            } else {
                for (app, types) in workspace.byApp where types.contains(type) { subscribers.apps.insert(app) }
            }
        }
        return subscribers
    }
}
