#!/usr/bin/env python3
"""Drives an activity's dashboard page (/dashboard/activity?app_id=...&activity_id=...) in Debian's headless
Chromium with Selenium 4.

Run by Tests/LiveGateTests/Dashboard/DashboardBrowserTests.swift against a gateway it serves on a real
socket, over a database where one activity has a confirmed start, an update, a channel, devices in every
state and more devices than one page shows:

    python3 Tests/Browser/activity_test.py BASE_URL EXPECTED_JSON

EXPECTED_JSON holds the key (it may read activities and the log), a key that may read the log only, the
page size, the activity resource's answers for the page's two pages of devices (`first_page`,
`second_page`, as JSON text: what the page should show), the user ID that is markup and an activity ID
that is.

LIVEGATE_DASHBOARD_SCREENSHOT (a .png path) keeps screenshots: `-activity.png` beside it shows the activity,
`-activity-failure.png` a failed check.
Exits 0 when every check passes; otherwise prints what failed and exits 1.
"""

import json
import sys
from urllib.parse import quote

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from dashboard_test import KEY_STORAGE, WAIT_SECONDS, CheckFailed, check, make_driver, screenshot, script_main

# What common.js's none() reads as text: a dash, and "none" for screen readers.
NONE = "—none"
# What the Frequent updates column says for each frequent_pushes_enabled.
FREQUENT_PUSHES = {True: "allowed", False: "not allowed", None: "not reported"}
COUNTS = ("devices", "with_token", "active", "stale", "ended", "dismissed", "unreported", "channel_members")


def encode(text):
    """As JavaScript's encodeURIComponent."""
    return quote(text, safe="-_.!~*'()")


def activity_href(app_id, activity_id):
    return "activity?app_id=" + encode(app_id) + "&activity_id=" + encode(activity_id)


class ActivityPage:
    def __init__(self, driver, base_url):
        self.driver = driver
        self.base = base_url.rstrip("/") + "/dashboard/"

    def open(self, app_id, activity_id):
        self.driver.get(self.base + activity_href(app_id, activity_id))

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise CheckFailed(
                f"timed out after {WAIT_SECONDS}s waiting for {what}; url {self.driver.current_url}; "
                f"rows {len(self.device_ids())}; status {self.text('status')!r}; page error {self.text('page-error')!r}; "
                f"search error {self.text('search-error')!r}; key error {self.text('key-error')!r}")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : null;", element_id)

    def visible(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return bool(found) and found[0].is_displayed()

    def not_busy(self):
        return self.js("return document.getElementById('devices').getAttribute('aria-busy') !== 'true';")

    def device_ids(self):
        return self.js("return Array.from(document.querySelectorAll('#devices tbody tr[data-device-id]'))"
                       ".map(r => r.dataset.deviceId);") or []

    def shown(self, activity_id, device_ids):
        """The page shows this activity, with exactly these devices."""
        return (self.visible("activity-section") and self.not_busy() and self.text("activity-id") == activity_id
                and self.device_ids() == device_ids)

    def wait_for_devices(self, activity_id, device_ids, what):
        self.wait(lambda d: self.shown(activity_id, device_ids), f"{what}: {len(device_ids)} devices of {activity_id}")

    def counts(self):
        return self.js("""
            const out = {};
            for (const e of document.querySelectorAll('#activity-counts [data-count]')) out[e.dataset.count] = e.textContent;
            return out;""")

    def device_rows(self):
        return self.js("""
            return Array.from(document.querySelectorAll('#devices tbody tr[data-device-id]')).map(r => {
              const cell = (f) => r.querySelector('td[data-field="' + f + '"]');
              const time = (f) => { const t = cell(f).querySelector('time'); return t ? t.getAttribute('datetime') : null; };
              const link = cell('last_push').querySelector('a');
              const status = cell('last_push').querySelector('.apns-status');
              const state = cell('state').querySelector('[data-state]');
              return {
                device_id: cell('device_id').textContent,
                external_id: cell('external_id').textContent,
                token: cell('token').textContent,
                registered_at: time('registered_at'),
                rotated_at: time('rotated_at'),
                push_status: status ? status.textContent : null,
                push_href: link ? link.getAttribute('href') : null,
                push_at: time('last_push'),
                push_text: cell('last_push').textContent,
                state: state ? state.dataset.state : null,
                state_text: cell('state').textContent,
                state_reported_at: time('state'),
                channel_member: cell('channel_member').textContent,
                frequent_pushes: cell('frequent_pushes_enabled').textContent,
              };
            });""")

    def chart(self):
        return self.js("""
            const value = (a, c) => { const bar = a.querySelector(c); return bar ? bar.getAttribute('data-value') : null; };
            return Array.from(document.querySelectorAll('#timeline svg a.chart-dispatch')).map(a => ({
              id: a.getAttribute('data-dispatch-id'),
              event: a.getAttribute('data-event'),
              href: a.getAttribute('href'),
              sent: value(a, '.chart-bar-sent'),
              confirmed: value(a, '.chart-bar-confirmed'),
              labels: Array.from(a.querySelectorAll('text')).map(t => t.textContent),
            }));""")

    def dispatch_rows(self):
        return self.js("""
            return Array.from(document.querySelectorAll('#dispatches tbody tr[data-dispatch-id]')).map(r => ({
              id: r.dataset.dispatchId,
              href: r.cells[0].querySelector('a') ? r.cells[0].querySelector('a').getAttribute('href') : null,
              status: r.cells[1].querySelector('[data-status]').dataset.status,
              event: r.cells[2].textContent,
              accepted: r.cells[3].querySelector('time') ? r.cells[3].querySelector('time').getAttribute('datetime') : null,
              sent: r.cells[5].textContent,
              failed: r.cells[6].textContent,
              confirmed: r.cells[7].textContent,
            }));""")

    def enter_key(self, key):
        field = self.wait(lambda d: self.visible("key-input") and self.element("key-input"), "the key form")
        field.clear()
        field.send_keys(key)
        self.element("key-submit").click()

    def search(self, app_id, activity_id):
        for element_id, value in (("search-app-id", app_id), ("search-activity-id", activity_id)):
            field = self.element(element_id)
            field.clear()
            field.send_keys(value)
        self.element("search-submit").click()

    def injected(self):
        return self.js("""
            return {
              scripts: Array.from(document.scripts).map(s => s.getAttribute('src')),
              images: document.querySelectorAll('img').length,
              pwned: typeof window.__pwned,
            };""")


def expected_row(device):
    push = device["last_push"]
    return {
        "device_id": device["device_id"],
        "external_id": device["external_id"] if device["external_id"] is not None else NONE,
        "token": "…" + device["token"] if device["token"] else NONE,
        "registered_at": device["registered_at"],
        "rotated_at": device["rotated_at"],
        "push_status": str(push["apns_status"]) if push else None,
        "push_href": "dispatch?id=" + push["dispatch_id"] if push else None,
        "push_at": push["at"] if push else None,
        "state": device["state"],
        "state_reported_at": device["state_reported_at"] if device["state"] else None,
        "channel_member": "yes" if device["channel_member"] else "no",
        "frequent_pushes": FREQUENT_PUSHES[device["frequent_pushes_enabled"]],
    }


def run(base_url, expected):
    key = expected["key"]
    first, second = json.loads(expected["first_page"]), json.loads(expected["second_page"])
    app_id, activity_id = first["app_id"], first["activity_id"]
    first_ids = [device["device_id"] for device in first["devices"]]
    all_devices = first["devices"] + second["devices"]
    all_ids = [device["device_id"] for device in all_devices]
    href = activity_href(app_id, activity_id)
    driver = make_driver()
    try:
        page = ActivityPage(driver, base_url)

        # The address names the activity; the page asks for a key first.
        page.open(app_id, activity_id)
        page.wait(lambda d: page.visible("key-input"), "the key form")
        check(driver.title.endswith("LiveGate"), f"the activity page loads: title {driver.title!r}")

        # A key that may not read activities is refused, and not kept.
        page.enter_key(expected["forbidden_key"])
        page.wait(lambda d: page.visible("key-error") and "Access denied" in page.text("key-error"), "the 403 message")
        check("live_activity.read" in page.text("key-error"), f"the 403 names the permission: {page.text('key-error')!r}")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) is None, "a refused key is not kept")

        # The first page of devices, the counts, the channel.
        page.enter_key(key)
        page.wait_for_devices(activity_id, first_ids, "the first page of devices")
        check(len(first_ids) == expected["page_size"], f"a page of {expected['page_size']} devices at first")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) == key,
              "the key is kept in sessionStorage, as on the other pages")
        check(key not in driver.current_url, "the key is not in the URL")
        check(page.element("search-app-id").get_attribute("value") == app_id
              and page.element("search-activity-id").get_attribute("value") == activity_id,
              "the search form holds the address's app and activity")
        counts = page.counts()
        check(counts == {name: str(first["counts"][name]) for name in COUNTS}, f"the counts: {counts}")
        check(page.js("return document.querySelector('dd[data-field=\"app_id\"]').textContent;") == app_id, "the app")
        channel = page.js("""
            const dd = document.querySelector('dd[data-field="channel"]');
            const state = dd.querySelector('[data-channel-state]');
            return [dd.querySelector('.mono').textContent, state ? state.textContent : null];""")
        check(channel == [first["channel"]["channel_id"], first["channel"]["state"]], f"the channel and its state: {channel}")
        check(page.visible("more-devices"), "More devices is offered while there are more")
        check(page.text("status") == f"{len(first_ids)} of {first['counts']['devices']} devices shown",
              f"it says how many are shown: {page.text('status')!r}")

        # More devices: the next page is added below, and there are no more.
        page.element("more-devices").click()
        page.wait_for_devices(activity_id, all_ids, "every device after More devices")
        check(not page.visible("more-devices"), "More devices goes once every device is shown")
        rows = page.device_rows()
        for row, device in zip(rows, all_devices):
            wanted = expected_row(device)
            got = {name: row[name] for name in wanted}
            check(got == wanted, f"device {device['device_id']}'s row: {got} (wanted {wanted})")
        by_id = {row["device_id"]: row for row in rows}
        states = {row["state"] for row in rows}
        check({"active", "dismissed"} <= states, f"states reported and shown: {sorted(s for s in states if s)}")
        check(any(row["state_text"] == "not reported" for row in rows), "a device without a report says so")
        check(any(row["push_status"] == "200" for row in rows), "a device's last push, answered 200, links to its dispatch")
        check(any(row["channel_member"] == "yes" for row in rows), "the channel's member is marked")
        frequent = {row["frequent_pushes"] for row in rows}
        check(frequent == set(FREQUENT_PUSHES.values()),
              f"whether each device's user allows frequent updates, or that it never said: {sorted(frequent)}")
        markup = expected["markup_external_id"]
        check(any(row["external_id"] == markup for row in rows), "a user ID with markup is shown as text")
        check(all(row["push_text"] == NONE for row in rows if row["device_id"].startswith("device-")),
              "devices never pushed to have no last push")
        check(by_id.keys() == set(all_ids), "each device once")

        # The dispatches: bars oldest to newest, and a row each, newest first.
        dispatches = sorted(first["dispatches"], key=lambda dispatch: dispatch["accepted_at"])
        chart = page.chart()
        check([bar["id"] for bar in chart] == [dispatch["dispatch_id"] for dispatch in dispatches],
              f"a bar group per dispatch, oldest on the left: {[bar['event'] for bar in chart]}")
        for bar, dispatch in zip(chart, dispatches):
            confirmation = dispatch["confirmation"]
            wanted = {
                "event": dispatch["event"],
                "href": "dispatch?id=" + dispatch["dispatch_id"],
                "sent": str(dispatch["devices"]["sent"]),
                "confirmed": str(confirmation["confirmed"]) if confirmation else None,
            }
            got = {name: bar[name] for name in wanted}
            check(got == wanted, f"the {dispatch['event']}'s bars: {got} (wanted {wanted})")
            check(dispatch["event"] in bar["labels"], f"labelled with its event: {bar['labels']}")
        check(any(bar["confirmed"] is not None for bar in chart), "a start has a bar of its confirmations")
        table = page.dispatch_rows()
        newest_first = list(reversed(dispatches))
        check([row["id"] for row in table] == [dispatch["dispatch_id"] for dispatch in newest_first],
              f"a row per dispatch, newest first: {[row['event'] for row in table]}")
        for row, dispatch in zip(table, newest_first):
            confirmation = dispatch["confirmation"]
            wanted = {
                "href": "dispatch?id=" + dispatch["dispatch_id"],
                "status": dispatch["status"],
                "event": dispatch["event"],
                "accepted": dispatch["accepted_at"],
                "sent": str(dispatch["devices"]["sent"]),
                "failed": str(dispatch["devices"]["failed"]),
                "confirmed": str(confirmation["confirmed"]) if confirmation else NONE,
            }
            got = {name: row[name] for name in wanted}
            check(got == wanted, f"the {dispatch['event']}'s row: {got} (wanted {wanted})")
        injected = page.injected()
        check(injected["scripts"] == ["assets/common.js", "assets/activity.js"] and injected["images"] == 0
              and injected["pwned"] == "undefined", f"nothing was injected: {injected}")
        screenshot(driver, "-activity")

        # A bar opens its dispatch's page, which links back to the activity.
        newest = dispatches[-1]["dispatch_id"]
        driver.find_element(By.CSS_SELECTOR, f'#timeline a.chart-dispatch[data-dispatch-id="{newest}"]').click()
        page.wait(lambda d: page.text("dispatch-id") == newest and page.visible("activity-link"), "the dispatch's page")
        check(driver.current_url.endswith("/dashboard/dispatch?id=" + newest), f"the bar links to it: {driver.current_url}")
        link = page.js("const a = document.getElementById('activity-link'); return [a.textContent, a.getAttribute('href')];")
        check(link == ["Activity", href], f"the dispatch page links to its activity: {link}")
        field = page.js("const a = document.querySelector('dd[data-field=\"activity_id\"] a');"
                        "return a ? [a.textContent, a.getAttribute('href')] : null;")
        check(field == [activity_id, href], f"its activity ID links there too: {field}")
        page.element("activity-link").click()
        page.wait_for_devices(activity_id, first_ids, "the activity again, from the dispatch page")
        check(not page.visible("key-input"), "the key is not asked for again")

        # The log page: the dead token's entry links to the activity.
        driver.find_element(By.CSS_SELECTOR, '.top-nav a[href="message-activity-log"]').click()
        page.wait(lambda d: len(page.js("return document.querySelectorAll('#entries tbody tr[data-id]');")) > 0,
                  "the log page's entries")
        driver.find_element(By.CSS_SELECTOR, "#entries tbody tr[data-id]").click()
        page.wait(lambda d: page.visible("details"), "an entry's details")
        link = page.js("const a = document.querySelector('#details-fields dd[data-field=\"activity_id\"] a');"
                       "return a ? [a.textContent, a.getAttribute('href')] : null;")
        check(link == [activity_id, href], f"the entry's activity_id links to the activity's page: {link}")
        driver.find_element(By.CSS_SELECTOR, '#details-fields dd[data-field="activity_id"] a').click()
        page.wait_for_devices(activity_id, first_ids, "the activity from the log")

        # Another workspace's app, or one that does not exist: the gateway's errors, in the search form.
        page.search("no-such-app", activity_id)
        page.wait(lambda d: page.visible("search-error"), "the error for an unknown app_id")
        check("app_id 'no-such-app' is not an app of this workspace" in page.text("search-error"),
              f"a 400 shows the gateway's errors: {page.text('search-error')!r}")
        check(not page.visible("activity-section"), "nothing of the last activity stays")
        check(driver.current_url.endswith("/dashboard/" + activity_href("no-such-app", activity_id)),
              f"the search is in the address: {driver.current_url}")

        # Back: the address before, and its activity.
        driver.back()
        page.wait_for_devices(activity_id, first_ids, "the activity after Back")
        check(driver.current_url.endswith("/dashboard/" + href), f"Back returns to its address: {driver.current_url}")
        check(not page.visible("search-error"), "the error goes")

        # An activity nothing is known of, whose ID is markup: shown as text, with nothing in it.
        markup_activity = expected["markup_activity_id"]
        page.search(app_id, markup_activity)
        page.wait(lambda d: page.visible("activity-section") and page.text("activity-id") == markup_activity
                  and page.not_busy(), "the unknown activity")
        check(page.counts() == {name: "0" for name in COUNTS}, f"no devices counted: {page.counts()}")
        empty = page.js("const e = document.querySelector('#devices tbody tr.empty'); return e ? e.textContent : null;")
        check(empty is not None and empty.startswith("No devices"), f"it says there are none: {empty!r}")
        check(page.visible("timeline-empty") and page.chart() == [], "no dispatches drawn")
        check(page.text("activity-id") == markup_activity, "an activity ID with markup is shown as text")
        injected = page.injected()
        check(injected["scripts"] == ["assets/common.js", "assets/activity.js"] and injected["images"] == 0
              and injected["pwned"] == "undefined", f"nothing was injected: {injected}")

        problems = [entry["message"] for entry in driver.get_log("browser")
                    if entry["level"] == "SEVERE"
                    and "400 (Bad Request)" not in entry["message"] and "403 (Forbidden)" not in entry["message"]]
        check(problems == [], f"no console errors: {problems}")
    except Exception:
        screenshot(driver, "-activity-failure")
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(script_main(run, __doc__, "activity page"))
