// Stand-in for Apple's ActivityKit, for LiveGateKit's tests on Linux. Mirrors the documented signature:
// https://developer.apple.com/documentation/activitykit/activityattributes
// https://developer.apple.com/documentation/activitykit/activityattributes/contentstate

/// Apple's `ActivityAttributes`: the static description of a Live Activity, with its dynamic
/// `ContentState`. Stand-in: the same requirements, nothing more.
@available(iOS 16.1, *)
public protocol ActivityAttributes: Decodable, Encodable {
    /// Apple's `ActivityAttributes.ContentState`: the dynamic content (at most 4 KB encoded).
    associatedtype ContentState: Decodable, Encodable, Hashable
}
