import Hummingbird

// What an `update` call costs Hummingbird alone, with nothing of the gateway's: the body is read and a
// 201 with a body of the gateway's shape goes back. No middleware, no authentication, no parsing, no
// database. bench/ingest/floor.sh loads it as bench/ingest/run.sh loads the gateway.
let answer = #"{"dispatch_id":"019ab7d2-4c1e-7000-8000-000000000000","message":"success"}"#
let router = Router()
router.post("/messages/live_activity/update") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 64 * 1024)
    return Response(
        status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: answer)))
}
guard CommandLine.arguments.count == 2, let port = Int(CommandLine.arguments[1]) else {
    fatalError("usage: IngestFloor PORT")
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
