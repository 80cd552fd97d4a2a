import CCurl

/// The transfers a lane has handed to libcurl, found from the easy handle libcurl names when one ends.
///
/// Each transfer is its handle's `CURLOPT_PRIVATE` and knows its own place in the list, so that finding,
/// adding and removing one costs no hashing: a fan-out does each once per push on the lane's thread.
/// Used on one lane's thread only (`CurlLane`).
struct ActiveTransfers {
    private(set) var transfers: [CurlTransfer] = []

    var count: Int { transfers.count }

    /// `transfer` is going to libcurl on `easy`.
    mutating func add(_ transfer: CurlTransfer, on easy: UnsafeMutableRawPointer) {
        transfer.activePlace = transfers.count
        transfers.append(transfer)
        lg_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, Unmanaged.passUnretained(transfer).toOpaque())
    }

    /// Takes out the transfer libcurl ran on `easy`; nil when it is not one of this list's.
    mutating func remove(on easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        var pointer: UnsafeMutableRawPointer?
        guard lg_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else { return nil }
        // Only compared until it is found in the list, which holds it: no retain of an unknown pointer.
        let place = Unmanaged<CurlTransfer>.fromOpaque(pointer)._withUnsafeGuaranteedRef { $0.activePlace }
        guard transfers.indices.contains(place), Unmanaged.passUnretained(transfers[place]).toOpaque() == pointer else {
            return nil
        }
        return remove(at: place)
    }

    /// Whether `transfer` is in the list: with libcurl, not yet ended.
    func contains(_ transfer: CurlTransfer) -> Bool {
        transfers.indices.contains(transfer.activePlace) && transfers[transfer.activePlace] === transfer
    }

    /// Takes `transfer` out, if it is in the list.
    mutating func remove(_ transfer: CurlTransfer) {
        guard contains(transfer) else { return }
        _ = remove(at: transfer.activePlace)
    }

    /// Takes every transfer out.
    mutating func removeAll() -> [CurlTransfer] {
        defer { transfers = [] }
        for transfer in transfers { transfer.activePlace = -1 }
        return transfers
    }

    // The last transfer moves into the freed place.
    private mutating func remove(at place: Int) -> CurlTransfer {
        transfers.swapAt(place, transfers.count - 1)
        let removed = transfers.removeLast()
        if place < transfers.count { transfers[place].activePlace = place }
        removed.activePlace = -1
        return removed
    }
}
