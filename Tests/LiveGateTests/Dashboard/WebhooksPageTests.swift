import Foundation
import HTTPTypes
import HummingbirdTesting
import LiveGateAPI
import TestSupport
import Testing

/// The webhooks page (`/dashboard/webhooks`): served like the other pages, linked from each of them, and
/// its script calling `GET /webhooks` and the resume route, relative to the page.
@Suite("Dashboard webhooks page", .requiresPostgres)
struct WebhooksPageTests {
    @Test func thePageIsServedLikeTheOthersAndEveryPageLinksToEveryOther() async throws {
        try await TestDatabase.with { database in
            try await TestGateway.app(database).test(.router) { client in
                let page = try await DashboardTests.get(client, "/dashboard/webhooks")
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.cacheControl] == "no-store")
                DashboardTests.expectSecurityHeaders(page, "/dashboard/webhooks")
                #expect(
                    page.text.contains(
                        #"<script src="assets/common.js" defer></script>\#n  <script src="assets/webhooks.js" defer></script>"#))
                #expect(page.text.contains(#"<a href="webhooks" aria-current="page">Webhooks</a>"#))

                let script = try await DashboardTests.get(client, "/dashboard/assets/webhooks.js")
                #expect(script.status == .ok)
                #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(script.text.contains("callAPI(apiURL('webhooks'), key)"))
                #expect(script.text.contains("apiURL('webhooks/' + encodeURIComponent(endpoint.webhook_id) + '/resume'), key, 'POST')"))

                let links = [
                    ("message-activity-log", #"<a href="message-activity-log">Message activity log</a>"#),
                    ("activity", #"<a href="activity">Activity</a>"#),
                    ("webhooks", #"<a href="webhooks">Webhooks</a>"#),
                ]
                for name in ["message-activity-log", "dispatch", "activity", "webhooks"] {
                    let text = try await DashboardTests.get(client, "/dashboard/\(name)").text
                    for (target, link) in links where target != name {
                        #expect(text.contains(link), "\(name) links to \(target)")
                    }
                }

                let delete = try await client.execute(uri: "/dashboard/webhooks", method: .delete)
                #expect(delete.status == .methodNotAllowed)
                #expect(delete.headers[.allow] == "GET")
                // The page needs no key to load; the API it calls does.
                #expect(try await DashboardTests.get(client, "/webhooks").status == .unauthorized)
            }
        }
    }
}
