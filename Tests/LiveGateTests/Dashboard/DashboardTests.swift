import APNsCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveGate
import LiveGateAPI
import LiveGateDelivery
import LiveGateDomain
import LiveGateStore
import TestSupport
import Testing

@Suite("Dashboard files", .requiresPostgres)
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
                // The shared script first: `defer` runs them in order.
                #expect(
                    page.text.contains(
                        #"<script src="assets/common.js" defer></script>\#n  <script src="assets/dashboard.js" defer></script>"#))
                #expect(page.text.contains(#"<link rel="stylesheet" href="assets/dashboard.css">"#))

                let files = [
                    ("dashboard.css", "text/css; charset=utf-8"),
                    ("common.js", "text/javascript; charset=utf-8"),
                    ("dashboard.js", "text/javascript; charset=utf-8"),
                    ("dispatch.js", "text/javascript; charset=utf-8"),
                    ("activity.js", "text/javascript; charset=utf-8"),
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

    /// A dispatch's page: the same page for every dispatch (its script reads `?id=`), served like the log
    /// page, which links to it as `dispatch?id=<uuid>` beside itself.
    @Test func theDispatchPageIsServedLikeTheLogPage() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let id = UUID().uuidString.lowercased()
                // The address the log page's links make, resolved against the log page's own.
                let link = try #require(
                    URL(string: "dispatch?id=\(id)", relativeTo: URL(string: "http://gateway/dashboard/message-activity-log")))
                #expect(link.absoluteURL.path == "/dashboard/dispatch")
                for path in ["/dashboard/dispatch?id=\(id)", "/dashboard/dispatch", "/dashboard/dispatch?id=%3Cscript%3E"] {
                    let page = try await Self.get(client, path)
                    #expect(page.status == .ok, "\(path)")
                    #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                    #expect(page.headers[.cacheControl] == "no-store", "\(path)")
                    Self.expectSecurityHeaders(page, path)
                    // Nothing of the query is written into the page: the script reads it, as text.
                    #expect(!page.text.contains(id) && !page.text.contains("script%3E") && !page.text.contains("<script>"), "\(path)")
                    #expect(
                        page.text.contains(
                            #"<script src="assets/common.js" defer></script>\#n  <script src="assets/dispatch.js" defer></script>"#))
                    #expect(page.text.contains(#"<link rel="stylesheet" href="assets/dashboard.css">"#))
                }
                let delete = try await client.execute(uri: "/dashboard/dispatch", method: .delete)
                #expect(delete.status == .methodNotAllowed)
                #expect(delete.headers[.allow] == "GET")
                // The log page's details link there; the dispatch page links back.
                let common = try await Self.get(client, "/dashboard/assets/common.js").text
                #expect(common.contains("href: 'dispatch?id=' + encodeURIComponent("))
                let log = try await Self.get(client, "/dashboard/assets/dashboard.js").text
                #expect(log.contains("dispatchLink(String(value)"))
                let page = try await Self.get(client, "/dashboard/dispatch").text
                #expect(page.contains(#"<a href="message-activity-log">Message activity log</a>"#))
            }
        }
    }

    /// An activity's page: the same page for every activity (its script reads `?app_id=…&activity_id=…`),
    /// served like the dispatch page, which links to it beside itself, as the log page's details do.
    @Test func theActivityPageIsServedLikeTheDispatchPage() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                // The address the dispatch page's links make, resolved against the dispatch page's own.
                let link = try #require(
                    URL(
                        string: "activity?app_id=scores&activity_id=game-42",
                        relativeTo: URL(string: "http://gateway/dashboard/dispatch?id=\(UUID().uuidString.lowercased())")))
                #expect(link.absoluteURL.path == "/dashboard/activity")
                for path in [
                    "/dashboard/activity?app_id=scores&activity_id=game-42", "/dashboard/activity",
                    "/dashboard/activity?app_id=scores&activity_id=%3Cscript%3Egame-42",
                ] {
                    let page = try await Self.get(client, path)
                    #expect(page.status == .ok, "\(path)")
                    #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                    #expect(page.headers[.cacheControl] == "no-store", "\(path)")
                    Self.expectSecurityHeaders(page, path)
                    // Nothing of the query is written into the page: the script reads it, as text.
                    #expect(
                        !page.text.contains("scores") && !page.text.contains("script%3E") && !page.text.contains("<script>"), "\(path)")
                    #expect(
                        page.text.contains(
                            #"<script src="assets/common.js" defer></script>\#n  <script src="assets/activity.js" defer></script>"#))
                    #expect(page.text.contains(#"<link rel="stylesheet" href="assets/dashboard.css">"#))
                    #expect(page.text.contains(#"<a href="message-activity-log">Message activity log</a>"#))
                }
                let delete = try await client.execute(uri: "/dashboard/activity", method: .delete)
                #expect(delete.status == .methodNotAllowed)
                #expect(delete.headers[.allow] == "GET")
                // The script asks the activity resource; the other pages link to the page.
                let script = try await Self.get(client, "/dashboard/assets/activity.js")
                #expect(script.status == .ok)
                #expect(script.text.contains("apiURL('live_activity/activities/' + encodeURIComponent("))
                let common = try await Self.get(client, "/dashboard/assets/common.js").text
                #expect(common.contains("return 'activity?app_id=' + encodeURIComponent(appID) + '&activity_id=' + encodeURIComponent("))
                let dispatch = try await Self.get(client, "/dashboard/assets/dispatch.js").text
                #expect(dispatch.contains("activityLink(dispatch.app_id, dispatch.activity_id)"))
                let log = try await Self.get(client, "/dashboard/assets/dashboard.js").text
                #expect(log.contains("activityLink(entry.app_id, String(value))"))
                for page in ["dispatch", "message-activity-log"] {
                    let text = try await Self.get(client, "/dashboard/\(page)").text
                    #expect(text.contains(#"<a href="activity">Activity</a>"#), "\(page) links to the activity page")
                }
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

    /// The type names have one home, `ActivityLogType.all`: the page's filter is written from it when
    /// served, each option carrying the short label and colour the script shows, and neither the
    /// page's file nor the script spells a name of its own.
    @Test func theTypeFilterIsWrittenFromTheGatewaysOwnTypes() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let page = try await Self.get(client, "/dashboard/message-activity-log").text
                let expected = [
                    #"<option value="">All types</option>"#,
                    #"<option value="Live Activity error (No push credential)" data-label="No push credential" data-style="type-no-credential">Live Activity error (No push credential)</option>"#,
                    #"<option value="Live Activity error (Invalid push credential)" data-label="Invalid push credential" data-style="type-invalid-credential">Live Activity error (Invalid push credential)</option>"#,
                    #"<option value="APNS Feedback Removed Token errors" data-label="Token removed" data-style="type-removed-token">APNS Feedback Removed Token errors</option>"#,
                    #"<option value="Other Live Activity errors" data-label="Other error" data-style="type-other">Other Live Activity errors</option>"#,
                    #"<option value="Live Activity content-state mismatch" data-label="Payload mismatch" data-style="type-payload-mismatch">Live Activity content-state mismatch</option>"#,
                    #"<option value="Live Activity priority lowered" data-label="Priority lowered" data-style="type-priority-lowered">Live Activity priority lowered</option>"#,
                    #"<option value="Webhook endpoint paused" data-label="Webhook paused" data-style="type-webhook-paused">Webhook endpoint paused</option>"#,
                    #"<option value="Webhook endpoint resumed" data-label="Webhook resumed" data-style="type-webhook-resumed">Webhook endpoint resumed</option>"#,
                ]
                let options = page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("<option") }
                #expect(options == expected)
                #expect(ActivityLogType.all.map(\.rawValue) == expected.dropFirst().map { String($0.split(separator: "\"")[1]) })
                #expect(!page.contains("<!--"), "the placeholder is replaced")
                // The dispatch page labels its entries' types from the same options, in a datalist.
                let dispatchPage = try await Self.get(client, "/dashboard/dispatch").text
                let dispatchOptions = dispatchPage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { $0.hasPrefix("<option") }
                #expect(dispatchOptions == Array(expected.dropFirst()))
                #expect(dispatchPage.contains(#"<datalist id="log-types">"#))
                #expect(!dispatchPage.contains("<!--"), "the placeholder is replaced")
                // The colours the options name exist.
                let css = try await Self.get(client, "/dashboard/assets/dashboard.css").text
                for style in [
                    "type-no-credential", "type-invalid-credential", "type-removed-token", "type-other", "type-payload-mismatch",
                    "type-unknown",
                ] {
                    #expect(css.contains(".\(style) {"), "dashboard.css has .\(style)")
                }
            }
        }
        for file in try Self.assetFiles(ending: ".html") + Self.assetFiles(ending: ".js") {
            let text = try String(contentsOf: Self.assets.appendingPathComponent(file), encoding: .utf8)
            for type in ActivityLogType.all {
                #expect(!text.contains(type.rawValue), "\(file) spells '\(type.rawValue)'")
            }
        }
    }

    static let assets = Subprocess.repositoryRoot.appendingPathComponent("Sources/LiveGateAPI/Dashboard/Assets")

    /// Every page or script of the dashboard, so a new one is checked without being named here.
    static func assetFiles(ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: assets.path).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// What makes the strict policy work and the pages safe: no inline code or style in the HTML, and no
    /// script that turns text into markup.
    @Test func theFilesHaveNoInlineCodeAndNeverParseDataAsHTML() throws {
        let pages = try Self.assetFiles(ending: ".html")
        let scripts = try Self.assetFiles(ending: ".js")
        #expect(pages == ["activity.html", "dispatch.html", "message-activity-log.html", "webhooks.html"])
        #expect(scripts == ["activity.js", "common.js", "dashboard.js", "dispatch.js", "webhooks.js"])
        for page in pages {
            let html = try String(contentsOf: Self.assets.appendingPathComponent(page), encoding: .utf8)
            for pattern in [#"<script(?![^>]*\ssrc=)"#, #"\son[a-z]+\s*="#, #"\sstyle\s*="#, #"<style"#, #"javascript:"#, #"https?://"#] {
                let found = html.range(of: pattern, options: [.regularExpression, .caseInsensitive])
                #expect(found == nil, "\(page) has \(pattern): \(found.map { String(html[$0]) } ?? "")")
            }
        }
        for name in scripts {
            let script = try String(contentsOf: Self.assets.appendingPathComponent(name), encoding: .utf8)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!script.contains(sink), "\(name) uses \(sink)")
            }
        }
    }
}
