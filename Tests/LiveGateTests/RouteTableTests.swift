import HTTPTypes
import Hummingbird
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import Testing

@Suite("Route table: the methods served at a path")
struct RouteTableTests {
    static let table: RouteTable = {
        let router = Router(context: LiveGateRequestContext.self)
        router.get("/fixed") { _, _ in "" }
        router.put("/fixed") { _, _ in "" }
        router.get("/items/:id") { _, _ in "" }
        router.delete("/items/{id}") { _, _ in "" }
        router.post("/items/:id/notes") { _, _ in "" }
        router.get("/images/*.png") { _, _ in "" }
        router.get("/files/**/meta") { _, _ in "" }
        let table = RouteTable()
        table.load(from: router)
        return table
    }()

    @Test(
        arguments: [
            ("/fixed", ["GET", "PUT"]),
            ("/fixed/", ["GET", "PUT"]),
            ("/items/42", ["DELETE", "GET"]),
            ("/items/x.js", ["DELETE", "GET"]),
            ("/items/42/notes", ["POST"]),
            ("/images/cat.png", ["GET"]),
            ("/files/a/meta", ["GET"]),
            ("/files/a/b/c/meta", ["GET"]),
            ("/items", []),
            ("/items/42/notes/7", []),
            ("/images/cat.jpg", []),
            ("/files/meta", []),
            ("/files/a/b", []),
            ("/nope", []),
            ("/", []),
        ] as [(String, [String])])
    func methodsAt(path: String, methods: [String]) {
        #expect(Self.table.methods(forPath: path).map(\.rawValue).sorted() == methods)
    }

    @Test func descriptionsNameEachPatternAsOpenAPIWritesIt() {
        #expect(
            Self.table.descriptions == [
                "DELETE /items/{id}", "GET /files/**/meta", "GET /fixed", "GET /images/*.png", "GET /items/{id}",
                "POST /items/{id}/notes", "PUT /fixed",
            ])
    }
}
