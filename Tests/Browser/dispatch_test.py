#!/usr/bin/env python3
"""Drives a dispatch's dashboard page (/dashboard/dispatch?id=...) in Debian's headless Chromium with Selenium 4.

Run by Tests/LiveGateTests/Dashboard/DashboardBrowserTests.swift against a gateway it serves on a real
socket, over a database where it accepted three dispatches through the API, delivery not yet running:

    python3 Tests/Browser/dispatch_test.py BASE_URL EXPECTED_JSON

EXPECTED_JSON holds the key (it may read the log and send updates), the dispatches' ids (`superseded`, an
update superseded at once by `newer`, which is pending; `scheduled`, an end with a send_at an hour ahead
on an activity whose id is markup), the counts and log entries the newer one comes to once delivered,
and `go_file`: the test delivers the pending dispatch once this script creates that file, i.e. once the
page is watching it, so the page is seen to refresh on its own and then stop.

LIVEGATE_DASHBOARD_SCREENSHOT (a .png path) keeps screenshots: `-dispatch.png` beside it shows the
delivered dispatch, `-dispatch-cancelled.png` the cancelled one, `-dispatch-failure.png` a failed check.
Exits 0 when every check passes; otherwise prints what failed and exits 1.
"""

import sys
import time

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from dashboard_test import KEY_STORAGE, WAIT_SECONDS, CheckFailed, check, make_driver, screenshot, script_main


class DispatchPage:
    def __init__(self, driver, base_url):
        self.driver = driver
        self.base = base_url.rstrip("/") + "/dashboard/"

    def open(self, dispatch_id):
        self.driver.get(self.base + "dispatch?id=" + dispatch_id)

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise CheckFailed(
                f"timed out after {WAIT_SECONDS}s waiting for {what}; url {self.driver.current_url}; "
                f"status {self.status()!r}; counts {self.counts()}; page error {self.text('page-error')!r}; "
                f"lookup error {self.text('lookup-error')!r}; key error {self.text('key-error')!r}")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : null;", element_id)

    def visible(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return bool(found) and found[0].is_displayed()

    def status(self):
        return self.js("const e = document.getElementById('dispatch-status');"
                       "return e && e.offsetParent !== null ? e.dataset.status || null : null;")

    def wait_for_status(self, status, what, dispatch_id=None):
        self.wait(lambda d: self.status() == status and (dispatch_id is None or self.text("dispatch-id") == dispatch_id),
                  f"{what}: status {status}")

    def field(self, name):
        return self.js("return document.querySelector('#dispatch-fields dd[data-field=\"' + arguments[0] + '\"]').textContent;",
                       name)

    def counts(self):
        return self.js("""
            const out = {};
            for (const name of ['sent', 'failed', 'retried', 'removed']) {
              const e = document.getElementById('count-' + name);
              out[name] = e ? e.textContent : null;
            }
            return out;""")

    def refreshing(self):
        return self.js("return document.getElementById('dispatch-section').dataset.refreshing;")

    def entry_rows(self):
        return self.js("""
            return Array.from(document.querySelectorAll('#dispatch-entries tbody tr[data-id]')).map(r => ({
              type: r.querySelector('.type-label').dataset.type,
              token: r.cells[3].textContent,
              apns: r.cells[4].textContent,
            }));""")

    def api_calls(self):
        """The dispatch's API calls this page made so far (its own reads and the log's)."""
        return self.js("""
            return performance.getEntriesByType('resource').map(e => e.name).filter(
              n => n.includes('/messages/live_activity/dispatches/') || n.includes('/message_activity_log?')).length;""")

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
    superseded, newer, scheduled = expected["superseded"], expected["newer"], expected["scheduled"]
    driver = make_driver()
    try:
        page = DispatchPage(driver, base_url)

        # A superseded update: where it stands, and which dispatch took over.
        page.open(superseded)
        page.wait(lambda d: page.visible("key-input"), "the key form")
        check(driver.title.endswith("LiveGate"), f"the dispatch page loads: title {driver.title!r}")
        page.enter_key(key)
        page.wait_for_status("superseded", "the superseded dispatch")
        check(page.text("dispatch-id") == superseded, f"the page shows the dispatch asked for: {page.text('dispatch-id')}")
        check(page.text("dispatch-status") == "Superseded", f"its status reads Superseded: {page.text('dispatch-status')!r}")
        check(page.field("event") == "update" and page.field("activity_id") == "game-42",
              f"event and activity: {page.field('event')!r}, {page.field('activity_id')!r}")
        check(page.field("app_id") == expected["app_id"], f"the app: {page.field('app_id')!r}")
        check(page.field("external_id").startswith("—"), f"not narrowed to a user: {page.field('external_id')!r}")
        check(page.field("send_at") == "at once", f"sent at once: {page.field('send_at')!r}")
        accepted = page.js("return document.querySelector('dd[data-field=\"accepted_at\"] time').getAttribute('datetime');")
        check(accepted.endswith("Z") and len(accepted) == 24, f"accepted_at is UTC with milliseconds: {accepted!r}")
        link = page.js("const a = document.querySelector('dd[data-field=\"superseded_by\"] a');"
                       "return a ? [a.textContent, a.getAttribute('href')] : null;")
        check(link == [newer, "dispatch?id=" + newer], f"superseded_by links to the newer dispatch's page: {link}")
        check(page.counts() == {"sent": "0", "failed": "0", "retried": "0", "removed": "0"},
              f"nothing was sent: {page.counts()}")
        check(not page.visible("cancel-dispatch"), "a finished dispatch has no Cancel button")
        check(page.refreshing() == "false" and "no longer refreshes" in page.text("refresh-note"),
              f"a finished dispatch is not refreshed: {page.text('refresh-note')!r}")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) == key,
              "the key is kept in sessionStorage, as on the log page")
        check(key not in driver.current_url, "the key is not in the URL")

        # Follow the link: the newer one is pending (delivery is not running yet), and the page refreshes.
        driver.find_element(By.CSS_SELECTOR, 'dd[data-field="superseded_by"] a').click()
        page.wait_for_status("pending", "the newer dispatch", newer)
        check(driver.current_url.endswith("/dashboard/dispatch?id=" + newer), f"the link opens its page: {driver.current_url}")
        check(not page.visible("key-input"), "the key is not asked for again")
        check(page.visible("cancel-dispatch"), "an unfinished dispatch has a Cancel button")
        page.wait(lambda d: page.refreshing() == "true", "the page to say it refreshes")
        check("Refreshing every 2 s while it is pending" in page.text("refresh-note"),
              f"it says it refreshes: {page.text('refresh-note')!r}")
        check(page.js("return document.querySelector('#dispatch-entries tbody tr.empty').textContent;") == "No entries yet.",
              "no entries yet")

        # Delivery starts now; the page shows the outcome without being asked.
        open(expected["go_file"], "w").close()
        page.wait_for_status("done", "the delivered dispatch", newer)
        counts = expected["counts"]
        check(page.counts() == {name: str(counts[name]) for name in ("sent", "failed", "retried", "removed")},
              f"the device counts: {page.counts()}")
        page.wait(lambda d: len(page.entry_rows()) == len(expected["entries"]), "the dispatch's log entries")
        rows = sorted(page.entry_rows(), key=lambda row: row["token"])
        wanted = sorted(expected["entries"], key=lambda entry: entry["token"])
        check([(row["type"], row["token"]) for row in rows] == [(entry["type"], entry["token"]) for entry in wanted],
              f"its log entries, one per failed device: {rows}")
        check(page.field("completed_at") != "" and "not yet" not in page.field("completed_at"),
              f"finished at a time: {page.field('completed_at')!r}")
        check(not page.visible("cancel-dispatch"), "the Cancel button goes once it has finished")
        check(page.refreshing() == "false", "the page stops refreshing once it has finished")
        screenshot(driver, "-dispatch")
        calls = page.api_calls()
        time.sleep(4.5)  # two refresh periods
        check(page.api_calls() == calls, f"no more calls once finished: {calls} then {page.api_calls()}")

        # The log page: an entry's dispatch_id links to the dispatch's page.
        driver.find_element(By.CSS_SELECTOR, ".top-nav a").click()
        page.wait(lambda d: len(page.js("return document.querySelectorAll('#entries tbody tr[data-id]');")) == len(wanted),
                  "the log page's entries")
        check(not page.visible("key-input"), "the log page keeps the key too")
        driver.find_element(By.CSS_SELECTOR, "#entries tbody tr[data-id]").click()
        page.wait(lambda d: page.visible("details"), "an entry's details")
        link = page.js("const a = document.querySelector('#details-fields dd[data-field=\"dispatch_id\"] a');"
                       "return a ? [a.textContent, a.getAttribute('href')] : null;")
        check(link == [newer, "dispatch?id=" + newer], f"the entry's dispatch_id is a link to its page: {link}")
        driver.find_element(By.CSS_SELECTOR, '#details-fields dd[data-field="dispatch_id"] a').click()
        page.wait_for_status("done", "the dispatch page from the log", newer)

        # A scheduled end, cancelled from the page. Its activity_id is markup: shown as text.
        page.open(scheduled)
        page.wait_for_status("scheduled", "the scheduled end", scheduled)
        check(page.field("event") == "end", f"a scheduled end: {page.field('event')!r}")
        check(page.field("activity_id") == expected["scheduled_activity_id"],
              f"an activity_id with markup is shown as text: {page.field('activity_id')!r}")
        send_at = page.js("return document.querySelector('dd[data-field=\"send_at\"] time').getAttribute('datetime');")
        check(send_at == expected["send_at"], f"its send_at: {send_at!r}")
        check("Refreshing every 10 s while it is scheduled" in page.text("refresh-note"),
              f"an hour ahead, it is asked about less often: {page.text('refresh-note')!r}")
        page.element("cancel-dispatch").click()
        alert = WebDriverWait(driver, WAIT_SECONDS).until(expected_conditions.alert_is_present())
        check(scheduled in alert.text, f"Cancel asks first: {alert.text!r}")
        alert.accept()
        page.wait_for_status("cancelled", "the cancelled dispatch", scheduled)
        check(not page.visible("cancel-dispatch"), "no Cancel button once cancelled")
        check(not page.visible("cancel-error"), f"no error: {page.text('cancel-error')!r}")
        page.wait(lambda d: page.refreshing() == "false", "refreshing to stop once cancelled")
        check("not yet" not in page.field("completed_at"), f"cancelled at a time: {page.field('completed_at')!r}")
        injected = page.injected()
        check(injected["scripts"] == ["assets/common.js", "assets/dispatch.js"] and injected["images"] == 0
              and injected["pwned"] == "undefined", f"nothing was injected: {injected}")
        screenshot(driver, "-dispatch-cancelled")

        # Addresses that name no dispatch of this workspace.
        page.open("nope")
        page.wait(lambda d: page.visible("lookup-error"), "the error for an id that is not one")
        check('"nope" is not a dispatch ID' in page.text("lookup-error"), f"a bad id is named: {page.text('lookup-error')!r}")
        check(page.api_calls() == 0, "a bad id asks the gateway nothing")
        page.open(expected["unknown"])
        page.wait(lambda d: page.visible("lookup-error"), "the 404 message")
        check("No dispatch " + expected["unknown"] in page.text("lookup-error"),
              f"an unknown dispatch is said so: {page.text('lookup-error')!r}")
        field = page.element("lookup-input")
        field.send_keys(newer.upper())
        page.element("lookup-submit").click()
        page.wait_for_status("done", "the dispatch looked up by id", newer)

        problems = [entry["message"] for entry in driver.get_log("browser")
                    if entry["level"] == "SEVERE" and "404 (Not Found)" not in entry["message"]]
        check(problems == [], f"no console errors: {problems}")
    except Exception:
        screenshot(driver, "-dispatch-failure")
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(script_main(run, __doc__, "dispatch page"))
