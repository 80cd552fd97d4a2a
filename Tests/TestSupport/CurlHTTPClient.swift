import CCurl
import Dispatch
import Foundation

/// A small blocking HTTP/1.1 client over libcurl's easy interface, for tests that talk to a real
/// socket (a served gateway, a `livegate serve` process). Each request runs on a thread of its own:
/// on Linux Swift's tasks run on Dispatch's global queue, whose few threads (one a core) blocking
/// requests would take from the server under test. The easy handle and header list are freed once,
/// before returning.
package enum CurlHTTPClient {
    package struct Response: Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: Data

        package var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    private static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    package static func request(
        _ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil, timeoutSeconds: Int = 20
    ) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try perform(method, url, headers, body, timeoutSeconds) })
            }.start()
        }
    }

    /// Collects the bytes curl hands to a write callback.
    private final class Sink {
        var data = Data()
    }

    private static func perform(
        _ method: String, _ url: String, _ headers: [String: String], _ body: Data?, _ timeoutSeconds: Int
    ) throws -> Response {
        precondition(initialized, "curl_global_init failed")
        guard let handle = curl_easy_init() else { throw Failure(description: "curl_easy_init failed") }
        defer { curl_easy_cleanup(handle) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // An empty Expect keeps curl from waiting for 100-continue on larger bodies.
        headerList = curl_slist_append(headerList, "Expect:")

        let bodySink = Sink()
        let headerSink = Sink()
        let collect: lg_curl_data_callback = { data, size, count, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.data.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count) }
            return size * count
        }
        let payload = body ?? Data()
        return try withExtendedLifetime((bodySink, headerSink)) {
            try payload.withUnsafeBytes { payloadBytes -> Response in
                lg_curl_easy_setopt_string(handle, CURLOPT_URL, url)
                lg_curl_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
                lg_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
                lg_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
                lg_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                if body != nil {
                    lg_curl_easy_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: payloadBytes.baseAddress))
                    lg_curl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count))
                }
                lg_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, collect)
                lg_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(bodySink).toOpaque())
                lg_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, collect)
                lg_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(headerSink).toOpaque())
                let code = curl_easy_perform(handle)
                guard code == CURLE_OK else {
                    throw Failure(description: "curl: \(String(cString: curl_easy_strerror(code))) (\(method) \(url))")
                }
                var status = 0
                lg_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
                return Response(status: status, headers: parseHeaders(headerSink.data), body: bodySink.data)
            }
        }
    }

    /// Header names lower-cased; only the last response's headers (after any 100 Continue).
    private static func parseHeaders(_ data: Data) -> [String: String] {
        var headers: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") {
                headers = [:]
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }
}
