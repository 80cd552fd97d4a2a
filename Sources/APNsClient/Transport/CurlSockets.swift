import CCurl
import CurlPollCache
import Glibc

/// The sockets a lane's libcurl connections use, opened and closed through libcurl's socket callbacks
/// (`CURLOPT_OPENSOCKETFUNCTION`, `CURLOPT_CLOSESOCKETFUNCTION`), so that the lane can end a connection
/// libcurl would otherwise keep and reuse: one that stopped answering (`ConnectionWatch`).
///
/// Used on one lane's thread only; libcurl calls the callbacks on that thread.
final class CurlSockets {
    private var open: Set<Int32> = []

    /// Shuts down the socket of `connection`: libcurl finds it closed when it next reads or checks it,
    /// and drops the connection instead of sending on it again.
    func shutDown(_ connection: CurlConnectionID) {
        for socket in open where CurlConnectionID(socket: socket) == connection {
            Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// Sends what libcurl has written since the last flush. The sockets are corked (`TCP_CORK`), so the
    /// frames of a lane's pass (each push's HEADERS and DATA, each its own TLS record and `send`) leave in
    /// full segments rather than one segment a frame, which the server then reads in one go. Setting
    /// TCP_NODELAY pushes out what the cork holds and leaves the cork in place (tcp(7)). The lane flushes
    /// before each wait, so nothing it wrote waits for the cork's own 200 ms.
    func flush() {
        var on: Int32 = 1
        for socket in open { setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
    }

    fileprivate func opened(_ socket: Int32) { open.insert(socket) }
    fileprivate func closed(_ socket: Int32) { open.remove(socket) }
}

/// `clientp` is the lane's `CurlSockets`, unretained (the lane keeps it until its multi handle is freed).
let curlOpenSocketCallback: curl_opensocket_callback = { clientp, _, address in
    guard let clientp, let address else { return CURL_SOCKET_BAD }
    let socket = Glibc.socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    guard socket >= 0 else { return CURL_SOCKET_BAD }
    // A new socket may carry the number of one closed in the same pass.
    lg_poll_cache_forget(socket)
    if address.pointee.socktype == Int32(SOCK_STREAM.rawValue) {
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    Unmanaged<CurlSockets>.fromOpaque(clientp).takeUnretainedValue().opened(socket)
    return socket
}

let curlCloseSocketCallback: curl_closesocket_callback = { clientp, socket in
    if let clientp { Unmanaged<CurlSockets>.fromOpaque(clientp).takeUnretainedValue().closed(socket) }
    lg_poll_cache_forget(socket)
    return Glibc.close(socket)
}
