import CCurl
import NIOPosix

/// Posts webhook batches with libcurl: HTTP/1.1, or h2 where a TLS receiver offers it by ALPN. Each
/// request is one blocking `curl_easy_perform` on the client's own threads (never Swift's cooperative
/// pool); the easy handle is made, used and freed by that one call, so it has one owner that frees it
/// once. A batch costs a connection of its own: endpoints get at most one batch at a time, and a
/// backlog's batches follow each other, so reuse would save a handshake per 500 events at most.
package final class WebhookHTTPClient: Sendable {
    /// What came of a POST: the receiver's status and the start of its body, or why there was none.
    package enum Outcome: Sendable, Equatable {
        case answered(status: Int, body: String)
        case failed(String)
    }

    private let threads: NIOThreadPool
    let timeout: Duration

    /// `threads`: how many POSTs may be under way at once (the sender's endpoints in parallel).
    package init(threads: Int, timeout: Duration) {
        self.threads = NIOThreadPool(numberOfThreads: threads)
        self.timeout = timeout
        self.threads.start()
    }

    package func post(url: String, headers: [(String, String)], body: [UInt8]) async -> Outcome {
        let timeout = timeout
        do {
            return try await threads.runIfActive { Self.perform(url: url, headers: headers, body: body, timeout: timeout) }
        } catch {
            return .failed("the sender is stopping")
        }
    }

    package func shutdown() async {
        try? await threads.shutdownGracefully()
    }

    /// The bytes of an answer's body kept for `last_error`.
    static let keptBodyBytes = 300

    private static func perform(url: String, headers: [(String, String)], body: [UInt8], timeout: Duration) -> Outcome {
        guard let easy = curl_easy_init() else { return .failed("libcurl could not make a handle") }
        defer { curl_easy_cleanup(easy) }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        // libcurl would add "Expect: 100-continue" for large bodies, a round trip some receivers never answer.
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        let answer = AnswerBody()
        let context = Unmanaged.passUnretained(answer).toOpaque()
        let milliseconds = Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000)
        var codes: [CURLcode] = [
            lg_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            lg_curl_easy_setopt_string(easy, CURLOPT_URL, url),
            // Only the web: a stored URL never makes the gateway read a file or speak another protocol.
            lg_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            lg_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS),
            lg_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, milliseconds)),
            lg_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, milliseconds)),
            lg_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list),
            lg_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count),
            lg_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, webhookBodyCallback),
            lg_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
        ]
        codes.append(
            body.withUnsafeBytes {
                lg_curl_easy_setopt_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            })
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            return .failed(String(cString: curl_easy_strerror(failed)))
        }
        let result = withExtendedLifetime(answer) { curl_easy_perform(easy) }
        guard result == CURLE_OK else { return .failed(String(cString: curl_easy_strerror(result))) }
        var status = 0
        lg_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .answered(status: status, body: String(decoding: answer.bytes, as: UTF8.self))
    }
}

/// The start of an answer's body, filled in by libcurl's write callback on the performing thread.
private final class AnswerBody {
    var bytes: [UInt8] = []
}

/// Keeps the first bytes of the body and takes the rest without keeping it.
private let webhookBodyCallback: lg_curl_data_callback = { data, size, count, context in
    let length = size * count
    guard let data, let context else { return length }
    let answer = Unmanaged<AnswerBody>.fromOpaque(context).takeUnretainedValue()
    let room = WebhookHTTPClient.keptBodyBytes - answer.bytes.count
    if room > 0 {
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            answer.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(room, length)))
        }
    }
    return length
}
