import APNsCore

/// The broadcast paths APNs serves (`BroadcastPaths`), with the bundle id they name.
enum BroadcastRoute: Equatable {
    /// `/1/apps/<bundle id>/channels`: create, read, delete.
    case channels(bundleID: String)
    /// `/1/apps/<bundle id>/all-channels`: list.
    case allChannels(bundleID: String)
    /// `/4/broadcasts/apps/<bundle id>`: send.
    case broadcast(bundleID: String)

    init?(path: String) {
        // Every push's path comes here first: turn away the others before splitting anything.
        guard path.utf8.starts(with: "/1/".utf8) || path.utf8.starts(with: "/4/".utf8) else { return nil }
        let route = String(path.prefix { $0 != "?" })
        let parts = route.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 5, parts[1] == "1", parts[2] == "apps", !parts[3].isEmpty {
            let bundleID = String(parts[3])
            switch route {
            case BroadcastPaths.channels(bundleID: bundleID): self = .channels(bundleID: bundleID)
            case BroadcastPaths.allChannels(bundleID: bundleID): self = .allChannels(bundleID: bundleID)
            default: return nil
            }
        } else if parts.count == 5, route == BroadcastPaths.broadcast(bundleID: String(parts[4])), !parts[4].isEmpty {
            self = .broadcast(bundleID: String(parts[4]))
        } else {
            return nil
        }
    }

    var bundleID: String {
        switch self {
        case .channels(let bundleID), .allChannels(let bundleID), .broadcast(let bundleID): bundleID
        }
    }

    var allowedMethods: Set<String> {
        switch self {
        case .channels: ["POST", "GET", "DELETE"]
        case .allChannels: ["GET"]
        case .broadcast: ["POST"]
        }
    }
}
