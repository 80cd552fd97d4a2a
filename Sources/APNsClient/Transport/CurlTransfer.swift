import CCurl

/// One request in flight on a libcurl easy handle: what it collects and whom to tell.
///
/// `@unchecked Sendable`: the caller builds it and passes it through the client's locked inbox; from
/// then on only the client's thread touches it.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTP2Request
    let completion: TransferCompletion
    /// Lower-case names of the headers to keep; nil keeps all.
    let keptHeaders: [[UInt8]]?
    var responseHeaders: [String: String] = [:]
    var responseBody: [UInt8] = []
    /// The request's own header lines given to curl; freed once, when the transfer completes.
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// The last of the own lines, while it links to the request's shared lines (which it does not own).
    var sharedHeadersLink: UnsafeMutablePointer<curl_slist>?

    init(request: HTTP2Request, completion: TransferCompletion, keptHeaders: [[UInt8]]? = nil) {
        self.request = request
        self.completion = completion
        self.keptHeaders = keptHeaders
    }

    deinit {
        sharedHeadersLink?.pointee.next = nil
        curl_slist_free_all(headerList)
    }

    /// One raw header line (`name: value\r\n`); the status line and the blank line are skipped.
    func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        if let keptHeaders {
            // ASCII letters only differ in bit 0x20; header names are ASCII.
            let wanted = keptHeaders.contains { kept in
                kept.count == colon && kept.elementsEqual(bytes[..<colon]) { $0 == $1 | 0x20 || $0 == $1 }
            }
            guard wanted else { return }
        }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        var value = bytes[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x0D || last == 0x0A || last == 0x20 { value = value.dropLast() }
        responseHeaders[name] = String(decoding: value, as: UTF8.self)
    }
}

/// libcurl's write and header callbacks: `userdata` is the transfer, unretained (the client holds it).
let curlBodyCallback: lg_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

let curlHeaderCallback: lg_curl_data_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let userdata else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.receiveHeaderLine(UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}
