import APNsClient
import Foundation
import TestSupport
import Testing

/// The libcurl HTTP/2 client against nghttpd, a real HTTP/2 server (nghttp2's), over h2c and TLS.
@Suite("HTTP/2 client on libcurl multi")
struct CurlHTTP2ClientTests {
    static func push(_ port: Int, scheme: String = "http", index: Int) -> HTTP2Request {
        HTTP2Request(
            url: "\(scheme)://127.0.0.1:\(port)/3/device/\(String(format: "%064x", index))",
            headers: [("apns-push-type", "liveactivity"), ("apns-priority", "10"), ("content-type", "application/json")],
            body: Array(#"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"n":\#(index)}}}"#.utf8))
    }

    /// An echo server over TLS, and a client set up with `configuration` that trusts its certificate,
    /// shut down once `body` is through.
    private static func withEchoOverTLS(
        _ configuration: HTTP2ClientConfiguration = .init(),
        _ body: (_ port: Int, _ client: CurlHTTP2Client) async throws -> Void
    ) async throws {
        let certificate = try await TestKeyPair.Certificate.make()
        defer { certificate.remove() }
        var trusting = configuration
        trusting.trustedCAFile = certificate.certificateFile
        let clientConfiguration = trusting
        try await EchoServer.with(tls: certificate) { port in
            let client = CurlHTTP2Client(configuration: clientConfiguration)
            do {
                try await body(port, client)
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    /// Over TLS (as APNs speaks), 300 concurrent pushes multiplex: nghttpd allows 100 streams per
    /// connection, so libcurl needs a few connections, not 300, and later pushes reuse them.
    @Test func concurrentRequestsMultiplexOverLongLivedTLSConnections() async throws {
        try await Self.withEchoOverTLS { port, client in
            let responses = try await withThrowingTaskGroup(of: (Int, HTTP2Response).self) { group in
                for index in 0..<300 {
                    group.addTask { (index, try await client.send(Self.push(port, scheme: "https", index: index))) }
                }
                return try await group.reduce(into: [(Int, HTTP2Response)]()) { $0.append($1) }
            }
            #expect(responses.count == 300)
            for (index, response) in responses {
                #expect(response.status == 200)
                #expect(response.headers["nghttpd-response"] == "echo")
                #expect(response.body == Self.push(port, index: index).body, "each stream gets its own answer")
            }
            let opened = responses.filter { !$0.1.reusedConnection }.count
            #expect(opened >= 1 && opened <= client.configuration.maximumConnectionsPerHost, "\(opened) connections")
            for index in 0..<5 {
                #expect(try await client.send(Self.push(port, scheme: "https", index: index)).reusedConnection)
            }
        }
    }

    /// More requests than the connections can carry wait in the client's own queue and go out as streams
    /// free up: every one is answered, in its own stream, and no extra connection is opened for them.
    @Test func requestsBeyondWhatTheConnectionsCarryWaitTheirTurn() async throws {
        try await Self.withEchoOverTLS(.init(maximumConnectionsPerHost: 2, maximumStreamsPerConnection: 5)) { port, client in
            #expect(client.configuration.maximumTransfersInProgress == 10)
            let responses = try await withThrowingTaskGroup(of: (Int, HTTP2Response).self) { group in
                for index in 0..<200 {
                    group.addTask { (index, try await client.send(Self.push(port, scheme: "https", index: index))) }
                }
                return try await group.reduce(into: [(Int, HTTP2Response)]()) { $0.append($1) }
            }
            #expect(responses.count == 200)
            for (index, response) in responses {
                #expect(response.status == 200)
                #expect(response.body == Self.push(port, index: index).body)
            }
            let opened = responses.filter { !$0.1.reusedConnection }.count
            #expect(opened >= 1 && opened <= 2, "\(opened) connections")
        }
    }

    /// Each lane's thread carries the client's name and its number, as `top -H` and `perf` show threads.
    @Test func eachLanesThreadIsNamedAfterItsClient() async throws {
        let client = CurlHTTP2Client(configuration: .init(maximumConnectionsPerHost: 2, threads: 2), name: "lg-lane-name")
        let expected: Set<String> = ["lg-lane-name-1", "lg-lane-name-2"]
        var names: Set<String> = []
        for _ in 0..<200 where !expected.isSubset(of: names) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            names = Set(
                tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
                    .map { $0.trimmingCharacters(in: .newlines) })
            if !expected.isSubset(of: names) { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(expected.isSubset(of: names), "threads: \(names.sorted())")
        await client.shutdown()
    }

    /// One stream on one connection: each request goes out on the handle the last one used. libcurl keeps
    /// a copy of a body and the handle skips copying it again only when the next body has the same bytes:
    /// a body of the same length but other bytes, the same bytes in another array, a shorter one and an
    /// empty one each arrive as they were sent.
    @Test func aReusedHandleSendsEachRequestsOwnBody() async throws {
        try await Self.withEchoOverTLS(.init(maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 1)) { port, client in
            let first = Array(#"{"aps":{"event":"update","content-state":{"home":1}}}"#.utf8)
            var sameLength = first
            sameLength[sameLength.count - 4] = UInt8(ascii: "2")
            let bodies: [[UInt8]] = [
                first, sameLength, first.withUnsafeBufferPointer { Array($0) }, Array(first.prefix(20)), [], first,
            ]
            for (index, body) in bodies.enumerated() {
                var request = Self.push(port, scheme: "https", index: index)
                request.body = body
                let response = try await client.send(request)
                #expect(response.status == 200)
                #expect(response.body == body, "request \(index)")
            }
        }
    }

    /// A batch made request by request (`send(batchOf:)`): each index is asked for once, and each answer
    /// comes back in its request's place, with that request's own body echoed.
    @Test func aBatchMadeRequestByRequestIsAnsweredInOrder() async throws {
        try await Self.withEchoOverTLS(.init(maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 8)) { port, client in
            var asked: [Int] = []
            let answers = await client.send(batchOf: 40) { index in
                asked.append(index)
                var request = Self.push(port, scheme: "https", index: index)
                request.body = Array("{\"index\":\(index)}".utf8)
                return request
            }
            #expect(asked == Array(0..<40))
            #expect(answers.count == 40)
            for (index, answer) in answers.enumerated() {
                let response = try answer.get()
                #expect(response.status == 200)
                #expect(response.body == Array("{\"index\":\(index)}".utf8), "answer \(index)")
            }
            let none = await client.send(batchOf: 0) { _ in
                Issue.record("asked for a request of an empty batch")
                return Self.push(port, scheme: "https", index: 0)
            }
            #expect(none.isEmpty)
        }
    }

    /// A lane's pass checks the socket of each transfer on it; within the pass, checks of a socket found
    /// quiet are answered without a system call (`CurlPollCache`). With 400 streams waiting 50 ms for
    /// their answers on one connection most checks are such repeats, and still each stream gets its own
    /// answer (APNs echoes the request's `apns-id`).
    @Test func repeatedSocketChecksWithinAPassLoseNoAnswer() async throws {
        #if os(Linux)
            #expect(CurlHTTP2Client.answersSocketChecksWithinAPass, "libcurl's checks reach the cache in this build")
        #endif
        try await SimulatorProcess.with(options: ["--latency-ms", "50"]) { port, _, certificate, _ in
            let client = CurlHTTP2Client(
                configuration: .init(
                    maximumConnectionsPerHost: 1, maximumStreamsPerConnection: 400, trustedCAFile: certificate))
            let ids = (0..<2000).map { _ in UUID().uuidString.lowercased() }
            // Without a provider token: 403s, which carry the apns-id as 200s do.
            let requests = ids.enumerated().map { index, id in
                HTTP2Request(
                    url: "https://127.0.0.1:\(port)/3/device/\(String(format: "%064x", index + 1))", headers: [("apns-id", id)],
                    body: Array("{}".utf8))
            }
            let answeredBefore = CurlHTTP2Client.socketChecksAnsweredWithinAPass
            let answers = await client.send(batch: requests)
            await client.shutdown()
            #expect(answers.count == ids.count)
            for (answer, id) in zip(answers, ids) {
                let response = try answer.get()
                #expect(response.status == 403 && response.headers["apns-id"] == id, "\(response)")
            }
            #if os(Linux)
                // Process-wide and only ever growing: other tests' lanes can add to it, none take away.
                #expect(CurlHTTP2Client.socketChecksAnsweredWithinAPass - answeredBefore > UInt64(ids.count))
            #endif
        }
    }

    /// The lane corks its sockets so that a pass's frames leave in full segments, and flushes before it
    /// waits: one push at a time on an open connection is answered at once, not after the cork's own
    /// 200 ms, which every one of them would wait out if nothing flushed.
    @Test func onePushAtATimeIsNotHeldBackByTheCork() async throws {
        try await Self.withEchoOverTLS { port, client in
            _ = try await client.send(Self.push(port, scheme: "https", index: 0))
            var times: [Duration] = []
            for index in 1...9 {
                let answer = try await client.send(Self.push(port, scheme: "https", index: index))
                #expect(answer.status == 200 && answer.reusedConnection)
                times.append(answer.answerTime)
            }
            #expect(times.sorted()[times.count / 2] < .milliseconds(100), "\(times)")
        }
    }

    /// With 2 threads, 2 connections are each a lane's: two batches sent at once go out on both, 40
    /// streams each (answers held 10 s, so all are open together however busy the machine). On one
    /// thread, libcurl opens a second connection only when the first has no stream free: all 80 share one.
    @Test(arguments: [2, 1])
    func threadsSpreadTheConnectionsAndBatchesGoToTheLeastBusy(threads: Int) async throws {
        try await SimulatorProcess.with(options: ["--latency-ms", "10000"]) { port, _, certificate, control in
            let client = CurlHTTP2Client(
                configuration: .init(
                    maximumConnectionsPerHost: 2, maximumStreamsPerConnection: 100, threads: threads, trustedCAFile: certificate))
            #expect(client.configuration.connectionsPerLane == (threads == 2 ? [1, 1] : [2]))
            // Without a provider token: 403s, which answer as well as 200s here.
            let requests = (0..<80).map {
                HTTP2Request(url: "https://127.0.0.1:\(port)/3/device/\(String(format: "%064x", $0))", body: Array("{}".utf8))
            }
            let first = Array(requests[..<40])
            let second = Array(requests[40...])
            async let one = client.send(batch: first)
            async let two = client.send(batch: second)
            let answers = await one + two
            await client.shutdown()
            #expect(answers.allSatisfy { (try? $0.get())?.status == 403 }, "\(answers.prefix(3))")
            let busy = try await SimulatorProcess.connections(control).filter { ($0["most_streams_ever"] as? Int ?? 0) > 1 }
            #expect(busy.count == threads, "\(busy)")
            #expect(busy.map { $0["most_streams_ever"] as? Int ?? 0 }.reduce(0, +) == 80, "\(busy)")
        }
    }

    /// h2c (local simulators): every request gets its own connection, because libcurl 7.88 cannot reuse
    /// one with prior knowledge; what matters is that each request is answered.
    @Test func cleartextRequestsEachSucceed() async throws {
        try await EchoServer.with { port in
            let client = CurlHTTP2Client()
            for index in 0..<5 {
                let response = try await client.send(Self.push(port, index: index))
                #expect(response.status == 200)
                #expect(response.body == Self.push(port, index: index).body)
            }
            let concurrent = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 { group.addTask { try await client.send(Self.push(port, index: index)).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(concurrent == Array(repeating: 200, count: 20))
            await client.shutdown()
        }
    }

    @Test func nothingListeningIsAConnectFailure() async throws {
        let client = CurlHTTP2Client()
        do {
            _ = try await client.send(Self.push(LiveGateBinary.freePort(), index: 0))
            Issue.record("a request to a closed port succeeded")
        } catch let error as HTTP2TransportError {
            #expect(error.code == .connectFailed)
        }
        await client.shutdown()
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let (silent, port) = try await Self.silentServer()
        defer { silent.stop() }
        let client = CurlHTTP2Client(configuration: .init(responseTimeout: .milliseconds(300)))
        let started = ContinuousClock.now
        do {
            _ = try await client.send(Self.push(port, index: 0))
            Issue.record("a silent server answered")
        } catch let error as HTTP2TransportError {
            #expect(error.code == .timedOut)
        }
        // A ceiling only a hang reaches: the timeout is 300 ms.
        #expect(ContinuousClock.now - started < .seconds(60))
        await client.shutdown()
    }

    /// A connection that never finishes its TLS handshake fails its requests at the connect timeout, as
    /// timed out and never sent: the response timeout, far longer here, is not what ends them.
    @Test func aHandshakeThatNeverEndsTimesOutAtTheConnectTimeout() async throws {
        let (silent, port) = try await Self.silentServer()
        defer { silent.stop() }
        let client = CurlHTTP2Client(
            configuration: .init(connectTimeout: .milliseconds(300), responseTimeout: .seconds(120)))
        let started = ContinuousClock.now
        let answers = await client.send(batch: (0..<3).map { Self.push(port, scheme: "https", index: $0) })
        let waited = ContinuousClock.now - started
        await client.shutdown()
        for answer in answers {
            guard case .failure(let error) = answer else {
                Issue.record("a silent server answered: \(answer)")
                continue
            }
            #expect(error.code == .timedOut, "\(error)")
        }
        #expect(waited >= .milliseconds(300), "not before the connect timeout")
        // A ceiling only the response timeout or a hang reaches.
        #expect(waited < .seconds(60))
    }

    /// A server that accepts connections and never says a word. Another test may take the free port
    /// first (the server then exits at once), and a busy machine may take seconds to start Python: each
    /// try waits for the server itself, on a new port after a lost one.
    private static func silentServer() async throws -> (BackgroundProcess, port: Int) {
        for _ in 0..<5 {
            let port = LiveGateBinary.freePort()
            let silent = try BackgroundProcess(
                "/usr/bin/python3",
                [
                    "-c",
                    "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',\(port)))\ns.listen()\nc=[]\nwhile True: c.append(s.accept())",
                ])
            if try await silent.listens(on: port, timeout: .seconds(60)) { return (silent, port) }
            silent.stop()
        }
        throw Subprocess.Failure(description: "no port could be bound for the silent server")
    }

    @Test func tlsIsVerifiedAgainstTheTrustedAuthorities() async throws {
        let certificate = try await TestKeyPair.Certificate.make()
        defer { certificate.remove() }
        try await EchoServer.with(tls: certificate) { port in
            // The system's authorities do not know this self-signed certificate: refused.
            let strict = CurlHTTP2Client()
            do {
                _ = try await strict.send(Self.push(port, scheme: "https", index: 0))
                Issue.record("an unverifiable certificate was accepted")
            } catch let error as HTTP2TransportError {
                #expect(error.code == .tlsFailed)
            }
            await strict.shutdown()
            // Trusting it explicitly: HTTP/2 over TLS works.
            let trusting = CurlHTTP2Client(configuration: .init(trustedCAFile: certificate.certificateFile))
            let response = try await trusting.send(Self.push(port, scheme: "https", index: 7))
            #expect(response.status == 200)
            #expect(response.body == Self.push(port, index: 7).body)
            await trusting.shutdown()
        }
    }

    @Test func afterShutdownRequestsAreRefused() async throws {
        let client = CurlHTTP2Client()
        await client.shutdown()
        await client.shutdown()  // twice is fine
        do {
            _ = try await client.send(Self.push(1, index: 0))
            Issue.record("a shut-down client sent a request")
        } catch let error as HTTP2TransportError {
            #expect(error.code == .shutDown)
        }
    }
}
