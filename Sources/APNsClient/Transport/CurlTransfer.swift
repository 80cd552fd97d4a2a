import CCurl
import Glibc

/// One request in flight on a libcurl easy handle: what it collects and whom to tell.
///
/// `@unchecked Sendable`: the caller builds it and passes it through its lane's locked inbox; from
/// then on only that lane's thread touches it.
final class CurlTransfer: LaneRequest, @unchecked Sendable {
    let request: HTTP2Request
    let completion: TransferCompletion
    /// The headers to keep, nil for all: the lane's own copy, set as it hands the transfer to libcurl.
    var keptHeaders: [KeptHeaderName]?
    var responseHeaders = HTTP2Headers()
    var responseBody: [UInt8] = []
    /// How many times libcurl set out to send the request (`curlPrereqCallback`); it may send it only once.
    var attempts = 0
    /// Set by the lane's thread as it hands the transfer to libcurl: the handle it is on, and where the
    /// pre-request callback records the connection the request goes out on.
    var handle: LaneEasyHandle?
    var watch: ConnectionWatch?
    /// The connection the request went out on, while it waits there for its answer (`ConnectionWatch`).
    var connection: CurlConnectionID?
    /// Its place among its lane's transfers in libcurl (`ActiveTransfers`); -1 when it is not there.
    var activePlace = -1
    /// The request went out (the pre-request callback let it): the server may have seen it.
    var wasSent: Bool { attempts > 0 }
    /// Sent to learn whether its endpoint takes connections again (`ConnectBackoff`).
    var isProbe = false
    /// `scheme://authority` of the request's URL, once the lane needed it (`ConnectBackoff.endpoint`).
    lazy var endpoint = ConnectBackoff.endpoint(of: request.url)

    init(request: HTTP2Request, completion: TransferCompletion) {
        self.request = request
        self.completion = completion
    }

    /// The transfer ended on its lane: it lets go of the lane's objects, so that whichever thread frees
    /// it never touches their reference counts while the lane's thread does.
    func leaveLane() {
        handle = nil
        watch = nil
        keptHeaders = nil
    }

    /// One raw header line (`name: value\r\n`); the status line and the blank line are skipped.
    func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name: String
        if let keptHeaders {
            guard let kept = keptHeaders.first(where: { $0.matches(bytes[..<colon]) }) else { return }
            // The kept name is already lower-case: no new string per answer.
            name = kept.name
        } else {
            name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        }
        var value = bytes[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x0D || last == 0x0A || last == 0x20 { value = value.dropLast() }
        responseHeaders[name] = echoedValue(name, value) ?? String(decoding: value, as: UTF8.self)
    }

    /// The request's own value of header `name` when the answer's is the same: a server that echoes a
    /// header (APNs echoes `apns-id`) then costs no new string per answer.
    private func echoedValue(_ name: String, _ value: UnsafeBufferPointer<UInt8>.SubSequence) -> String? {
        for header in request.headers where header.name == name {
            let same = header.value.utf8.withContiguousStorageIfAvailable { own in
                own.count == value.count
                    && (own.isEmpty || memcmp(own.baseAddress!, value.base.baseAddress! + value.startIndex, own.count) == 0)
            }
            return (same ?? header.value.utf8.elementsEqual(value)) ? header.value : nil
        }
        return nil
    }
}

/// libcurl's write and header callbacks: `userdata` is the transfer, unretained (its lane holds it).
let curlBodyCallback: lg_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    // The lane holds the transfer while libcurl runs it: no retain of its own per callback.
    Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { transfer in
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
    }
    return length
}

let curlHeaderCallback: lg_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { transfer in
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.receiveHeaderLine(UnsafeBufferPointer(start: $0, count: length))
        }
    }
    return length
}

/// libcurl's pre-request callback (`CURLOPT_PREREQFUNCTION`), called each time it is about to send the
/// request, on a new or reused connection: the first time goes ahead, any later one is refused, and
/// the transfer ends with `CURLE_ABORTED_BY_CALLBACK` instead (`HTTP2TransportError.Code.lostAfterSending`).
///
/// libcurl (7.88, and later versions alike) sends a request again on its own (`Curl_retry_request`)
/// when it was on a connection libcurl reused and not one byte of answer came before the connection
/// failed (a TCP reset, or the stream closed by a GOAWAY or REFUSED_STREAM); it rewinds a body it had
/// already sent to do so, and tells the caller nothing. For a push that is a second copy on the device
/// whenever the server had already accepted the first: a connection reset after APNs took the push,
/// or a server that drops a busy connection with a GOAWAY that names no stream as processed (NIO, when
/// libcurl 7.88's resets after every answer look like an attack to it: see `CurlHTTP2Client`). libcurl
/// has no option to turn the retry off; this callback, called again for the new attempt, stops it.
/// It also stops a retry that would have been safe (nothing of the request had gone out): that one too
/// comes back as `lostAfterSending`, for the caller to send again, knowingly.
///
/// The first call also names the connection the request is on, which from then on must answer it, or
/// others of its requests, within the response timeout (`ConnectionWatch`): until then it waited for a
/// connection or a free stream.
let curlPrereqCallback: lg_curl_prereq_callback = { userdata, peerIP, localIP, peerPort, localPort in
    guard let userdata else { return CURL_PREREQFUNC_OK }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { transfer in
        transfer.attempts += 1
        guard transfer.attempts == 1 else { return CURL_PREREQFUNC_ABORT }
        let connection = CurlConnectionID(localIP: localIP, localPort: localPort, peerIP: peerIP, peerPort: peerPort)
        transfer.watch?.requestSent(transfer, on: connection)
        return CURL_PREREQFUNC_OK
    }
}
