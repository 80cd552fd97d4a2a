#!/usr/bin/env python3
"""Drives the webhooks dashboard page (/dashboard/webhooks) in Debian's headless Chromium with Selenium 4.

Run by Tests/LiveGateTests/Dashboard/WebhooksBrowserTests.swift against a gateway it serves on a real
socket (no webhook sender runs: what the page shows stays as seeded), over a database with four
endpoints, oldest first: one sending (of one app, with deliveries), one failing and an hour behind, one
paused, and one whose URL is markup:

    python3 Tests/Browser/webhooks_test.py BASE_URL EXPECTED_JSON

EXPECTED_JSON holds the key (it may manage webhooks and read the log), a key that may read the log only,
the endpoints' ids (`ids`, oldest first), the app's identifier, the paused endpoint's URL and the markup
URL. The page resumes the paused endpoint; the test then checks the database for it and its log entry.

LIVEGATE_DASHBOARD_SCREENSHOT (a .png path) keeps screenshots: `-webhooks.png` beside it shows the
endpoints, `-webhooks-failure.png` a failed check.
Exits 0 when every check passes; otherwise prints what failed and exits 1.
"""

import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from dashboard_test import KEY_STORAGE, WAIT_SECONDS, CheckFailed, check, make_driver, screenshot, script_main

# What common.js's none() reads as text: a dash, and "none" for screen readers.
NONE = "—none"


class WebhooksPage:
    def __init__(self, driver, base_url):
        self.driver = driver
        self.url = base_url.rstrip("/") + "/dashboard/webhooks"

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise CheckFailed(
                f"timed out after {WAIT_SECONDS}s waiting for {what}; url {self.driver.current_url}; "
                f"rows {self.row_ids()}; status {self.text('status')!r}; page error {self.text('page-error')!r}; "
                f"resume error {self.text('resume-error')!r}; key error {self.text('key-error')!r}")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : null;", element_id)

    def visible(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return bool(found) and found[0].is_displayed()

    def row_ids(self):
        return self.js("return Array.from(document.querySelectorAll('#webhooks tbody tr[data-webhook-id]'))"
                       ".map(r => r.dataset.webhookId);") or []

    def rows(self):
        return self.js("""
            return Array.from(document.querySelectorAll('#webhooks tbody tr[data-webhook-id]')).map(r => {
              const cell = (f) => r.querySelector('td[data-field="' + f + '"]');
              const time = (f) => { const t = cell(f).querySelector('time'); return t ? t.getAttribute('datetime') : null; };
              const button = r.querySelector('button[data-resume]');
              const stateLabel = cell('state').querySelector('[data-state]');
              return {
                id: r.dataset.webhookId,
                row_state: r.dataset.state,
                url: cell('endpoint').querySelector('.url').textContent,
                state: stateLabel.dataset.state,
                state_text: cell('state').textContent,
                button_in_state: button ? cell('state').contains(button) : null,
                state_time: time('state'),
                events: cell('events').textContent,
                app_id: cell('app_id').textContent,
                lag: cell('lag').textContent,
                failures: cell('failures').textContent,
                failing_since: time('failing_since'),
                last_delivered_at: time('last_delivered_at'),
                last_delivered_text: cell('last_delivered_at').textContent,
                delivered_events: cell('last_delivered_at').querySelector('[data-delivered]').dataset.delivered,
                delivered_text: cell('last_delivered_at').querySelector('[data-delivered]').textContent,
                last_error: cell('last_error').textContent,
                resume: button ? button.dataset.resume : null,
              };
            });""")

    def enter_key(self, key):
        field = self.wait(lambda d: self.visible("key-input") and self.element("key-input"), "the key form")
        field.clear()
        field.send_keys(key)
        self.element("key-submit").click()

    def injected(self):
        return self.js("""
            return {
              scripts: Array.from(document.scripts).map(s => s.getAttribute('src')),
              images: document.querySelectorAll('img').length,
              pwned: typeof window.__pwned,
            };""")


def run(base_url, expected):
    key = expected["key"]
    ids = expected["ids"]
    healthy, failing, paused, markup = ids
    driver = make_driver()
    try:
        page = WebhooksPage(driver, base_url)

        # The page asks for a key first; one that may not manage webhooks is refused, and not kept.
        driver.get(page.url)
        page.wait(lambda d: page.visible("key-input"), "the key form")
        check(driver.title == "Webhooks · LiveGate", f"the webhooks page loads: title {driver.title!r}")
        page.enter_key(expected["forbidden_key"])
        page.wait(lambda d: page.visible("key-error") and "Access denied" in page.text("key-error"), "the 403 message")
        check("webhooks.manage" in page.text("key-error"), f"the 403 names the permission: {page.text('key-error')!r}")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) is None, "a refused key is not kept")

        # The endpoints, oldest first, each as GET /webhooks reports it.
        page.enter_key(key)
        page.wait(lambda d: page.visible("webhooks-section") and page.row_ids() == ids, "the four endpoints")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) == key,
              "the key is kept in sessionStorage, as on the other pages")
        rows = {row["id"]: row for row in page.rows()}
        check([rows[i]["state"] for i in ids] == ["ok", "failing", "paused", "ok"],
              f"each endpoint's state: {[rows[i]['state'] for i in ids]}")

        row = rows[healthy]
        check(row["app_id"] == expected["app_id"] and row["events"] == "push.sent, dispatch.done",
              f"an endpoint of one app, and its events: {row['app_id']!r}, {row['events']!r}")
        check(row["lag"] == "0 s" and row["failures"] == "0" and row["failing_since"] is None and row["last_error"] == NONE,
              f"a caught-up endpoint: {row}")
        check(row["last_delivered_at"] is not None and row["delivered_text"] == "1200 events delivered",
              f"its last delivery and the events delivered: {row['last_delivered_at']}, {row['delivered_text']!r}")
        check(row["state_text"] == "Sending" and row["resume"] is None, f"it is sending, with no Resume: {row['state_text']!r}")

        row = rows[failing]
        check(row["app_id"] == "every app", f"an endpoint of every app says so: {row['app_id']!r}")
        check(row["lag"] == "1 h 1 min", f"its lag, from the gateway's lag_seconds: {row['lag']!r}")
        check(row["failures"] == "3" and row["failing_since"] is not None, f"its failures and since when: {row}")
        check(row["last_error"] == "HTTP 503: <b>busy</b>", f"the last error, markup as text: {row['last_error']!r}")
        check(row["state_text"].startswith("Failingnext try") and row["state_time"] is not None,
              f"a failing endpoint says when it is tried again: {row['state_text']!r}")
        check(row["last_delivered_text"] == "never0 events delivered" and row["resume"] is None,
              f"never delivered, no Resume: {row}")

        row = rows[paused]
        check(row["url"] == expected["paused_url"], f"the URL: {row['url']!r}")
        check(row["state_text"].startswith("Pausedsince") and row["state_text"].endswith("Resume") and row["state_time"] is not None,
              f"a paused endpoint says since when: {row['state_text']!r}")
        check(row["failures"] == "40" and row["last_error"] == "timed out", f"its failures and last error: {row}")
        check(row["resume"] == paused and row["button_in_state"], "a paused endpoint, and only it, has a Resume button, by its state")

        check(rows[markup]["url"] == expected["markup_url"], f"a URL with markup is shown as text: {rows[markup]['url']!r}")
        check(page.text("status") == "4 endpoints, 1 paused", f"the count: {page.text('status')!r}")
        check(page.js("return document.getElementById('webhooks-section').dataset.refreshing;") == "true",
              "the page refreshes itself")
        injected = page.injected()
        check(injected["scripts"] == ["assets/common.js", "assets/webhooks.js"] and injected["images"] == 0
              and injected["pwned"] == "undefined", f"nothing was injected: {injected}")
        screenshot(driver, "-webhooks")

        # Resume: the endpoint is sending again, and the page says so.
        driver.find_element(By.CSS_SELECTOR, f'button[data-resume="{paused}"]').click()
        page.wait(lambda d: any(r["id"] == paused and r["state"] == "ok" and r["resume"] is None for r in page.rows()),
                  "the resumed endpoint")
        check(page.text("resume-note") == "Resumed " + expected["paused_url"] + ": its waiting events are sent again.",
              f"the page says it resumed it: {page.text('resume-note')!r}")
        row = {r["id"]: r for r in page.rows()}[paused]
        check(row["failures"] == "0" and row["failing_since"] is None, f"its failures are cleared: {row}")
        check(page.text("status") == "4 endpoints", f"none paused any more: {page.text('status')!r}")
        check(not page.visible("resume-error"), "no error")

        # The log page shows the resumption, with its details, which link back here.
        driver.find_element(By.CSS_SELECTOR, '.top-nav a[href="message-activity-log"]').click()
        page.wait(lambda d: page.js("return document.querySelectorAll('#entries tbody tr[data-id]').length;") == 1,
                  "the log page's one entry")
        label = page.js("return document.querySelector('#entries tbody tr[data-id] .type-label').dataset.type;")
        check(label == "Webhook endpoint resumed", f"the resumption's entry: {label!r}")
        driver.find_element(By.CSS_SELECTOR, "#entries tbody tr[data-id]").click()
        page.wait(lambda d: page.visible("details"), "the entry's details")
        details = page.js("""
            const out = {};
            for (const dd of document.querySelectorAll('#details-fields dd[data-field="details"] dd[data-detail]')) {
              out[dd.dataset.detail] = dd.textContent;
            }
            return out;""")
        host = expected["paused_url"].split("/")[2]
        check(details.get("webhook_id") == paused and details.get("url_host") == host and details.get("failures") == "40"
              and details.get("last_error") == "timed out" and details.get("api_key_id") == expected["key_id"],
              f"the entry's details: {details}")
        link = page.js("const a = document.querySelector('#details-fields dd[data-detail=\"webhook_id\"] a');"
                       "return a ? a.getAttribute('href') : null;")
        check(link == "webhooks", f"the endpoint's id links to the webhooks page: {link!r}")
        driver.find_element(By.CSS_SELECTOR, '#details-fields dd[data-detail="webhook_id"] a').click()
        page.wait(lambda d: page.visible("webhooks-section") and page.row_ids() == ids, "the webhooks page again")
        check(not page.visible("key-input"), "the key is not asked for again")

        problems = [entry["message"] for entry in driver.get_log("browser")
                    if entry["level"] == "SEVERE" and "403 (Forbidden)" not in entry["message"]]
        check(problems == [], f"no console errors: {problems}")
    except Exception:
        screenshot(driver, "-webhooks-failure")
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(script_main(run, __doc__, "webhooks page"))
