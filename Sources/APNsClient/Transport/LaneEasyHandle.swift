import CCurl

/// An easy handle a lane reuses from request to request, with what it was last given, so that a
/// request sets only what differs from the handle's previous one: a fan-out's pushes share their
/// body, method and shared header lines, and differ in URL and `apns-id`.
///
/// Owned by its lane's thread, which frees it once (`cleanup()`).
final class LaneEasyHandle {
    let easy: UnsafeMutableRawPointer
    /// The scheme the options every request shares were set for (`CurlRequestSetup.configure`):
    /// cleartext or not; nil until they are set.
    var configuredCleartext: Bool?
    /// The body libcurl holds a copy of (`CURLOPT_COPYPOSTFIELDS`), kept so that a request whose body
    /// is the same array (the same storage, still alive here) skips copying it again; nil when the
    /// handle is set for a GET or for nothing yet.
    var copiedBody: [UInt8]? {
        didSet { copiedBodyStorage = copiedBody?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    }
    /// Where `copiedBody`'s bytes are, compared with a request's without copying (and so retaining) the
    /// array: its storage is shared with the thread building the next requests.
    private var copiedBodyStorage: UnsafeRawPointer?
    /// `CURLOPT_CUSTOMREQUEST` as last set: nil for none (POST, with a body).
    var customMethod: String?
    /// `CURLOPT_HTTPHEADER` as last set.
    var headerList: UnsafeMutablePointer<curl_slist>?
    let ownHeaders = OwnHeaderLines()

    init?() {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
    }

    /// `curl_easy_reset` cleared every option: nothing set earlier may be taken as still set.
    func forgetOptions() {
        configuredCleartext = nil
        copiedBody = nil
        customMethod = nil
        headerList = nil
    }

    /// Whether libcurl already holds `body` (the same array storage as the last one copied).
    func holds(_ body: [UInt8]) -> Bool {
        guard let copiedBodyStorage else { return false }
        return body.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) == copiedBodyStorage }
    }

    /// Frees the handle and its header lines; called once, by the lane's thread, with the handle out
    /// of the multi handle.
    func cleanup() {
        curl_easy_cleanup(easy)
        ownHeaders.free()
        copiedBody = nil
    }
}
