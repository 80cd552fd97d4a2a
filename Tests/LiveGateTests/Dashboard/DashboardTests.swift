import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import Testing
import TestSupport

@Suite("Dashboard files")
struct DashboardTests {
    static let csp =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func get(_ client: some TestClientProtocol, _ path: String) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get)
    }

    static func expectSecurityHeaders(_ response: TestResponse, _ path: String) {
        #expect(response.headers[.contentSecurityPolicy] == csp, "\(path)")
        #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(path)")
        #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(path)")
    }

    @Test func thePageAndItsFilesAreServedWithTheirTypesAndAStrictPolicy() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let page = try await Self.get(client, "/dashboard/message-activity-log")
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.cacheControl] == "no-store")
                Self.expectSecurityHeaders(page, "page")
                #expect(page.text.contains(#"<script src="assets/dashboard.js" defer></script>"#))
                #expect(page.text.contains(#"<link rel="stylesheet" href="assets/dashboard.css">"#))

                let files = [
                    ("dashboard.css", "text/css; charset=utf-8"),
                    ("dashboard.js", "text/javascript; charset=utf-8"),
                    ("icon.svg", "image/svg+xml"),
                ]
                for (name, contentType) in files {
                    let response = try await Self.get(client, "/dashboard/assets/\(name)")
                    #expect(response.status == .ok, "\(name)")
                    #expect(response.headers[.contentType] == contentType, "\(name)")
                    #expect(response.body.readableBytes > 0, "\(name)")
                    Self.expectSecurityHeaders(response, name)
                }
                // The page needs no key to load (it asks for one); the API still does.
                #expect(try await Self.get(client, "/message_activity_log").status == .unauthorized)
            }
        }
    }

    @Test func anUnknownFileIsTheUsualJSON404() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                for path in [
                    "/dashboard/assets/nope.js", "/dashboard/assets/message-activity-log.html",
                    "/dashboard/assets/..%2F..%2FPackage.swift", "/dashboard/nope",
                ] {
                    let response = try await Self.get(client, path)
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(path)")
                    #expect(try response.json["message"]?.stringValue?.hasPrefix("Not found: no endpoint at") == true, "\(path)")
                }
                let delete = try await client.execute(uri: "/dashboard/message-activity-log", method: .delete)
                #expect(delete.status == .methodNotAllowed)
                #expect(delete.headers[.allow] == "GET")
            }
        }
    }

    /// What makes the strict policy work and the page safe: no inline code or style in the HTML, and no
    /// script that turns text into markup.
    @Test func theFilesHaveNoInlineCodeAndNeverParseDataAsHTML() throws {
        let folder = Subprocess.repositoryRoot.appendingPathComponent("Sources/LiveGate/Dashboard/Assets")
        let html = try String(contentsOf: folder.appendingPathComponent("message-activity-log.html"), encoding: .utf8)
        let script = try String(contentsOf: folder.appendingPathComponent("dashboard.js"), encoding: .utf8)
        for pattern in [#"<script(?![^>]*\ssrc=)"#, #"\son[a-z]+\s*="#, #"\sstyle\s*="#, #"<style"#, #"javascript:"#, #"https?://"#] {
            let found = html.range(of: pattern, options: [.regularExpression, .caseInsensitive])
            #expect(found == nil, "the page has \(pattern): \(found.map { String(html[$0]) } ?? "")")
        }
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!script.contains(sink), "dashboard.js uses \(sink)")
        }
    }
}
