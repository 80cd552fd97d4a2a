import Hummingbird
import LiveGateDomain

extension RouterPath {
    /// Whether a request path, split at `/`, falls under this pattern: each component matched as the
    /// router matches it (captures and `*` take any, `*.js` a suffix), and `**` one or more components.
    func matches(_ requestComponents: [Substring]) -> Bool {
        Self.match(components[...], requestComponents[...])
    }

    private static func match(_ pattern: ArraySlice<Element>, _ request: ArraySlice<Substring>) -> Bool {
        guard let element = pattern.first else { return request.isEmpty }
        if element == .recursiveWildcard {
            guard !request.isEmpty else { return false }
            return (request.startIndex + 1...request.endIndex).contains { match(pattern.dropFirst(), request[$0...]) }
        }
        guard let first = request.first, element ~= first else { return false }
        return match(pattern.dropFirst(), request.dropFirst())
    }
}
