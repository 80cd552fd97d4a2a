import Foundation

/// nghttpd answering every upload with the same bytes: an HTTP/2 peer that is not the simulator.
package enum EchoServer {
    /// nghttpd answering every upload with the same bytes, for the length of `body`.
    package static func with<Result>(
        tls: TestKeyPair.Certificate? = nil, _ body: (_ port: Int) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lg-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nghttpd = try await BackgroundProcess.locate("nghttpd")
        // The port is free when chosen, but another test's server may take it before nghttpd binds it;
        // then nghttpd exits and the listener found is someone else's: choose another port.
        for _ in 0..<5 {
            let port = LiveGateBinary.freePort()
            // Bound to 127.0.0.1, where the client connects: left to getaddrinfo, nghttpd could bind
            // another address family beside the server holding the port and stay up.
            var arguments = ["--echo-upload", "--address=127.0.0.1", "-d", folder.path, String(port)]
            if let tls { arguments += [tls.keyFile, tls.certificateFile] } else { arguments.insert("--no-tls", at: 0) }
            let server = try BackgroundProcess(nghttpd, arguments)
            defer { server.stop() }
            guard try await server.listens(on: port) else { continue }
            try await Task.sleep(for: .milliseconds(300))
            if server.hasExited { continue }
            return try await body(port)
        }
        throw Subprocess.Failure(description: "nghttpd could not bind a port in five tries")
    }
}
