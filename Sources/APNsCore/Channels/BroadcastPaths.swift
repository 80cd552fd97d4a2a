/// The request paths of broadcast channels, for the client that calls them and the simulator that
/// serves them. Bundle ids are letters, digits, `-` and `.`, so they go into paths as they are.
public enum BroadcastPaths {
    /// On the management host: create (POST), read (GET) and delete (DELETE) one channel; the
    /// channel, when there is one, is named by the `apns-channel-id` header, not the path.
    public static func channels(bundleID: String) -> String { "/1/apps/\(bundleID)/channels" }

    /// On the management host: list every channel of the app (GET).
    public static func allChannels(bundleID: String) -> String { "/1/apps/\(bundleID)/all-channels" }

    /// On the push host: send one push to every device subscribed to a channel (POST).
    public static func broadcast(bundleID: String) -> String { "/4/broadcasts/apps/\(bundleID)" }
}
