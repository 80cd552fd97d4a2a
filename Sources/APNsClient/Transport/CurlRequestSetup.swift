import CCurl

/// Puts a request on an easy handle, and reads the outcome back.
///
/// A handle is configured once with what every request of a client shares (`configure`); each request
/// then sets only its own URL and callbacks, and whichever of method, headers and body differ from the
/// handle's last request (`apply`), which costs far less than resetting the handle and setting
/// everything again for every push.
enum CurlRequestSetup {
    /// `http://` (any case): HTTP/2 without TLS, by prior knowledge.
    static func isCleartext(_ url: String) -> Bool {
        url.utf8.prefix(7).elementsEqual("http://".utf8) { $0 | 0x20 == $1 | 0x20 }
    }

    /// The options every request of a client shares. Nil when every option took; else why not.
    static func configure(
        _ easy: UnsafeMutableRawPointer, configuration: HTTP2ClientConfiguration, cleartext: Bool, sockets: CurlSockets
    ) -> HTTP2TransportError? {
        let socketsContext = Unmanaged.passUnretained(sockets).toOpaque()
        var codes: [CURLcode] = [
            lg_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            // http:// is HTTP/2 without TLS (prior knowledge); https:// negotiates h2 by ALPN and verifies.
            lg_curl_easy_setopt_long(
                easy, CURLOPT_HTTP_VERSION, cleartext ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2TLS),
            // Wait for a connection that can multiplex rather than open another one per request.
            lg_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1),
            // Each connection's setup (resolving, TCP, TLS). The response timeout is the client's own
            // (`ConnectionWatch`): libcurl's CURLOPT_TIMEOUT would count the wait for a free stream.
            lg_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds),
            lg_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyCallback),
            lg_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback),
            // A request goes out once: libcurl would send it again by itself after some connection failures.
            lg_curl_easy_setopt_prereq_callback(easy, CURLOPT_PREREQFUNCTION, curlPrereqCallback),
            // The lane's own sockets, so that it can close a connection that stopped answering.
            lg_curl_easy_setopt_opensocket_callback(easy, CURLOPT_OPENSOCKETFUNCTION, curlOpenSocketCallback),
            lg_curl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, socketsContext),
            lg_curl_easy_setopt_closesocket_callback(easy, CURLOPT_CLOSESOCKETFUNCTION, curlCloseSocketCallback),
            lg_curl_easy_setopt_pointer(easy, CURLOPT_CLOSESOCKETDATA, socketsContext),
        ]
        if cleartext {
            // libcurl 7.88 fails the second request on a reused h2c connection: never reuse one.
            codes.append(lg_curl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
            codes.append(lg_curl_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1))
        }
        if let caFile = configuration.trustedCAFile {
            codes.append(lg_curl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile))
        }
        return problem(in: codes)
    }

    /// The request's own options, set on a handle that may have carried another request: only what
    /// differs from that one is set again (a fan-out's pushes share body, method and shared lines).
    /// Nil when every option took; else why the request cannot be sent.
    static func apply(_ transfer: CurlTransfer, to handle: LaneEasyHandle) -> HTTP2TransportError? {
        let request = transfer.request
        let easy = handle.easy
        var check = OptionCheck()
        let headers = handle.ownHeaders.write(request.headers, then: request.sharedHeaders)
        if headers != handle.headerList {
            check.note(lg_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headers))
            handle.headerList = headers
        }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        // libcurl copies the URL; `withCString` lends the string's own bytes, where passing the String
        // would copy them into a new array for every push.
        check.note(request.url.withCString { lg_curl_easy_setopt_string(easy, CURLOPT_URL, $0) })
        check.note(lg_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        check.note(lg_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        check.note(lg_curl_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, context))
        if request.method == "GET" && request.body.isEmpty {
            // Undoes a body and method the handle's last request may have left.
            check.note(lg_curl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
            check.note(lg_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, nil))
            handle.copied(nil)
            handle.customMethod = nil
        } else {
            if !handle.holds(request.body) {
                // Size first: COPYPOSTFIELDS then copies exactly that many bytes, NULs and all.
                check.note(lg_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, request.body.count))
                check.note(
                    request.body.withUnsafeBytes {
                        lg_curl_easy_setopt_pointer(
                            easy, CURLOPT_COPYPOSTFIELDS,
                            UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                    })
                handle.copied(request.body)
            }
            // POST is what a body means to libcurl; any other method is named.
            let custom = request.method == "POST" ? nil : request.method
            if custom != handle.customMethod {
                check.note(lg_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, custom))
                handle.customMethod = custom
            }
        }
        if check.failed != CURLE_OK {
            // What took is unknown: the next request sets everything afresh.
            curl_easy_reset(easy)
            handle.forgetOptions()
        }
        return check.problem
    }

    /// The first option libcurl refused, if any: collected without an array per request.
    private struct OptionCheck {
        private(set) var failed = CURLE_OK

        mutating func note(_ code: CURLcode) {
            if failed == CURLE_OK { failed = code }
        }

        var problem: HTTP2TransportError? {
            failed == CURLE_OK ? nil : HTTP2TransportError(.invalidRequest, String(cString: curl_easy_strerror(failed)))
        }
    }

    private static func problem(in codes: [CURLcode]) -> HTTP2TransportError? {
        var check = OptionCheck()
        for code in codes { check.note(code) }
        return check.problem
    }

    static func outcome(
        of transfer: CurlTransfer, easy: UnsafeMutableRawPointer, result: CURLcode
    ) -> Result<HTTP2Response, HTTP2TransportError> {
        guard result == CURLE_OK else {
            if result == CURLE_ABORTED_BY_CALLBACK && transfer.attempts > 1 {
                return .failure(
                    HTTP2TransportError(
                        .lostAfterSending,
                        "the connection failed before the answer came; the request may have reached the server and was not sent again"))
            }
            let message = String(cString: curl_easy_strerror(result))
            // The status line came before the failure (libcurl resets it for every transfer).
            let partial = response(of: transfer, easy: easy)
            if partial.status >= 200, result != CURLE_ABORTED_BY_CALLBACK {
                return .failure(
                    HTTP2TransportError(.answerCutOff, "the answer broke off after its headers: \(message)", partialAnswer: partial))
            }
            return .failure(HTTP2TransportError(code(for: result), message))
        }
        return .success(response(of: transfer, easy: easy))
    }

    /// What came of the answer: its status (0 if none came), headers and body.
    private static func response(of transfer: CurlTransfer, easy: UnsafeMutableRawPointer) -> HTTP2Response {
        var status = 0
        var connects = 0
        // Microseconds since the transfer started: until it was about to send, and until it ended.
        var ready: curl_off_t = 0
        var ended: curl_off_t = 0
        lg_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        lg_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        lg_curl_easy_getinfo_offset(easy, CURLINFO_PRETRANSFER_TIME_T, &ready)
        lg_curl_easy_getinfo_offset(easy, CURLINFO_TOTAL_TIME_T, &ended)
        // Moved out, not copied: the transfer is done with them.
        var headers = HTTP2Headers()
        var body: [UInt8] = []
        swap(&headers, &transfer.responseHeaders)
        swap(&body, &transfer.responseBody)
        return HTTP2Response(
            status: status, headers: headers, body: body, reusedConnection: connects == 0,
            answerTime: .microseconds(max(0, ended - ready)))
    }

    static func code(for result: CURLcode) -> HTTP2TransportError.Code {
        switch result {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .connectFailed
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE:
            .tlsFailed
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .invalidRequest
        default: .connectionLost
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so that a short timeout never becomes 0 (libcurl's "none").
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
