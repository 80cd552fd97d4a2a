import CCurl

/// A request's own header lines (a push's `apns-id`), written into memory an easy handle keeps from
/// one request to the next and linked in front of the lines the request shares (`SharedHeaderLines`).
/// `curl_slist_append` would allocate a node and a copy of the line for every push, and free both after.
///
/// Owned by one `LaneEasyHandle`, on its lane's thread; libcurl reads the lines only while the
/// handle's transfer runs, and the lane rewrites them only between transfers. Freed once, by `free()`.
final class OwnHeaderLines {
    private var nodes: UnsafeMutablePointer<curl_slist>?
    private var nodeCapacity = 0
    private var text: UnsafeMutablePointer<CChar>?
    private var textCapacity = 0
    /// The shared lines the last own line links to, kept alive while it does.
    private var shared: SharedHeaderLines?

    /// Writes `headers` as `name: value` lines followed by `shared`'s; returns the list's head for
    /// `CURLOPT_HTTPHEADER` (the same pointer while the lines fit the memory already held).
    func write(_ headers: [(name: String, value: String)], then shared: SharedHeaderLines?) -> UnsafeMutablePointer<curl_slist>? {
        // Assigned only when it changes: the lines are shared with the thread building the next requests,
        // and retaining them for every push would make both contend for one reference count.
        if self.shared !== shared { self.shared = shared }
        guard !headers.isEmpty else { return shared?.list }
        var needed = 0
        for (name, value) in headers { needed += name.utf8.count + 2 + value.utf8.count + 1 }
        if headers.count > nodeCapacity {
            nodes?.deallocate()
            nodes = .allocate(capacity: headers.count)
            nodeCapacity = headers.count
        }
        if needed > textCapacity {
            text?.deallocate()
            text = .allocate(capacity: needed)
            textCapacity = needed
        }
        guard let nodes, let text else { return nil }
        var offset = 0
        for (index, (name, value)) in headers.enumerated() {
            let line = text + offset
            offset += Self.copy(name, to: text + offset)
            text[offset] = CChar(UInt8(ascii: ":"))
            text[offset + 1] = CChar(UInt8(ascii: " "))
            offset += 2
            offset += Self.copy(value, to: text + offset)
            text[offset] = 0
            offset += 1
            let next = index + 1 < headers.count ? nodes + index + 1 : shared?.list
            (nodes + index).initialize(to: curl_slist(data: line, next: next))
        }
        return nodes
    }

    /// Frees the memory; the handle it belongs to is being cleaned up.
    func free() {
        nodes?.deallocate()
        text?.deallocate()
        nodes = nil
        text = nil
        nodeCapacity = 0
        textCapacity = 0
        shared = nil
    }

    /// Copies `string`'s UTF-8 to `destination`; returns how many bytes.
    private static func copy(_ string: String, to destination: UnsafeMutablePointer<CChar>) -> Int {
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            UnsafeMutableRawPointer(destination).copyMemory(from: base, byteCount: bytes.count)
            return bytes.count
        }
        if let copied { return copied }
        var count = 0
        for byte in string.utf8 {
            destination[count] = CChar(bitPattern: byte)
            count += 1
        }
        return count
    }
}
