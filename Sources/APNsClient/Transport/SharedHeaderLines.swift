import CCurl

/// Header lines many requests share (all of one dispatch's pushes carry the same provider token, topic,
/// priority and expiration), as one libcurl list built once instead of once per request. Each request's
/// own lines are linked in front of it while the request is in flight (`OwnHeaderLines`).
///
/// `@unchecked Sendable`: the list is never changed after `init`; libcurl only reads it, on the client's
/// thread; it is freed once, when the last request holding it is gone.
public final class SharedHeaderLines: @unchecked Sendable {
    let list: UnsafeMutablePointer<curl_slist>?

    public init(_ headers: [(name: String, value: String)]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        // Without it libcurl adds `accept: */*` to every request: nothing APNs reads, and a header each end
        // encodes and parses per push.
        if !headers.contains(where: { $0.name.lowercased() == "accept" }) { list = curl_slist_append(list, "Accept:") }
        self.list = list
    }

    deinit {
        curl_slist_free_all(list)
    }
}
