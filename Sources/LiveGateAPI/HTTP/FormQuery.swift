import Foundation
import LiveGateDomain

/// A URL query string read as HTML forms and most HTTP clients write it (`application/x-www-form-urlencoded`):
/// `&`-separated `name=value` pairs, `+` for a space, then percent-decoding. Hummingbird's own parser
/// keeps `+` as is, so `?type=Other+Live+Activity+errors` would not match.
enum FormQuery {
    /// The pairs in order; a pair that is not valid percent-encoding is kept undecoded.
    static func pairs(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
