import Glibc

/// One TCP connection of a lane: its two ends, as libcurl's pre-request callback names them when it
/// puts a request on the connection, and as the connection's socket names them.
struct CurlConnectionID: Hashable {
    let localPort: Int32
    let peerPort: Int32
    /// Both ends' addresses in text, hashed (FNV-1a): the same local port may reach several APNs hosts.
    let addresses: UInt64

    init(localIP: UnsafePointer<CChar>?, localPort: Int32, peerIP: UnsafePointer<CChar>?, peerPort: Int32) {
        self.localPort = localPort
        self.peerPort = peerPort
        // Each address followed by a separator; no array of the two per push.
        func add(_ text: UnsafePointer<CChar>?, to hash: inout UInt64) {
            var byte = text
            while let current = byte, current.pointee != 0 {
                hash = (hash ^ UInt64(UInt8(bitPattern: current.pointee))) &* 0x100_0000_01b3
                byte = current + 1
            }
            hash = (hash ^ 0x2F) &* 0x100_0000_01b3
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        add(localIP, to: &hash)
        add(peerIP, to: &hash)
        addresses = hash
    }

    /// The connection `socket` carries, or nil if it is not a connected TCP socket.
    init?(socket: Int32) {
        var local = sockaddr_storage()
        var peer = sockaddr_storage()
        guard Self.name(of: socket, into: &local, getsockname), Self.name(of: socket, into: &peer, getpeername),
            let localEnd = Self.text(of: &local), let peerEnd = Self.text(of: &peer)
        else { return nil }
        self = localEnd.ip.withCString { localIP in
            peerEnd.ip.withCString { peerIP in
                CurlConnectionID(localIP: localIP, localPort: localEnd.port, peerIP: peerIP, peerPort: peerEnd.port)
            }
        }
    }

    private static func name(
        of socket: Int32, into storage: inout sockaddr_storage,
        _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Bool {
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(socket, $0, &length) == 0 }
        }
    }

    /// The address as `inet_ntop` writes it (as libcurl does), and the port.
    private static func text(of storage: inout sockaddr_storage) -> (ip: String, port: Int32)? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    guard inet_ntop(AF_INET, &address.pointee.sin_addr, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                    return (String(cString: buffer), Int32(UInt16(bigEndian: address.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    guard inet_ntop(AF_INET6, &address.pointee.sin6_addr, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                    return (String(cString: buffer), Int32(UInt16(bigEndian: address.pointee.sin6_port)))
                }
            }
        default:
            return nil
        }
    }
}
