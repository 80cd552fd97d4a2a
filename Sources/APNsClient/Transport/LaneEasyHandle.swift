import CCurl
import Glibc

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
    /// The bytes libcurl holds a copy of (`CURLOPT_COPYPOSTFIELDS`), in the lane's own copy, so that a
    /// request with the same bytes skips copying them again: a fan-out's pushes carry the same payload,
    /// in one storage per batch (`Dispatch.pushes`). Compared by content, not storage, so the lane never
    /// retains a request's body, whose reference count the threads building the requests use meanwhile.
    /// Nil when the handle is set for a GET or for nothing yet.
    private(set) var copiedBody: [UInt8]?
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

    /// libcurl was given a copy of `body`: the lane keeps one of its own to compare the next ones with.
    func copied(_ body: [UInt8]?) {
        copiedBody = body.map { body in body.withUnsafeBufferPointer { Array($0) } }
    }

    /// Whether libcurl already holds `body`'s bytes.
    func holds(_ body: [UInt8]) -> Bool {
        guard let copiedBody else { return false }
        return body.withUnsafeBufferPointer { new in
            copiedBody.withUnsafeBufferPointer { own in
                new.count == own.count && (new.isEmpty || memcmp(new.baseAddress!, own.baseAddress!, new.count) == 0)
            }
        }
    }

    /// Frees the handle and its header lines; called once, by the lane's thread, with the handle out
    /// of the multi handle.
    func cleanup() {
        curl_easy_cleanup(easy)
        ownHeaders.free()
        copiedBody = nil
    }
}
