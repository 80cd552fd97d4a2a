#!/usr/bin/env python3
"""Drives the message activity log page in Debian's headless Chromium with Selenium 4.

Run by Tests/LiveGateTests/Dashboard/DashboardBrowserTests.swift against a gateway it serves on a real
socket, over a database it seeded:

    python3 Tests/Browser/dashboard_test.py BASE_URL EXPECTED_JSON

EXPECTED_JSON holds the keys (`key` may read the log, `forbidden_key` may not), the page size, every
seeded entry's id newest first, each entry's type, dispatch_id, activity_id and message, the ids of the
entry whose message is markup and of the one whose activity_id is, and the suppressed hour.

Set LIVEGATE_DASHBOARD_SCREENSHOT to a .png path to keep screenshots of the page: that path shows the
first page, `-details.png` beside it an entry's details, `-refused.png` the answer to a key without the
permission, `-failure.png` the page when a check failed.
Exits 0 when every check passes; otherwise prints what failed and exits 1.
"""

import json
import os
import sys
import traceback

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT_SECONDS = 20
KEY_STORAGE = "livegate.dashboard.apiKey"


class CheckFailed(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)
    print("ok -", message.split(":")[0] if ":" in message else message)


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1440,1000", "--lang=en-US", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service("/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT_SECONDS)
    driver.set_script_timeout(WAIT_SECONDS)
    return driver


class Page:
    def __init__(self, driver, base_url):
        self.driver = driver
        self.url = base_url.rstrip("/") + "/dashboard/message-activity-log"

    def wait(self, condition, what):
        """Waits (bounded) until condition(driver) is truthy; fails naming what was awaited."""
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise CheckFailed(
                f"timed out after {WAIT_SECONDS}s waiting for {what}; "
                f"rows now: {self.row_ids()}; key error: {self.text('key-error')!r}; "
                f"log error: {self.text('log-error')!r}; status: {self.text('status')!r}")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : null;", element_id)

    def visible(self, element_id):
        return self.element(element_id).is_displayed()

    def row_ids(self):
        return self.js(
            "return Array.from(document.querySelectorAll('#entries tbody tr[data-id]')).map(r => r.dataset.id);")

    def label_types(self):
        return self.js(
            "return Array.from(document.querySelectorAll('#entries tbody tr .type-label')).map(l => l.dataset.type);")

    def not_busy(self):
        return self.js("return document.getElementById('entries').getAttribute('aria-busy') !== 'true';")

    def wait_for_rows(self, expected, what):
        self.wait(lambda d: self.not_busy() and self.row_ids() == expected, f"{what}: rows {expected}")

    def enter_key(self, key):
        field = self.wait(lambda d: self.visible("key-input") and self.element("key-input"), "the key form")
        field.clear()
        field.send_keys(key)
        self.element("key-submit").click()

    def click(self, element_id):
        self.wait(lambda d: self.element(element_id).is_enabled(), f"#{element_id} to be enabled")
        self.element(element_id).click()


def screenshot(driver, suffix=""):
    path = os.environ.get("LIVEGATE_DASHBOARD_SCREENSHOT")
    if path:
        if suffix:
            path = os.path.splitext(path)[0] + suffix + ".png"
        driver.save_screenshot(path)
        print("screenshot saved to", path)


def run(base_url, expected):
    page_size = expected["page_size"]
    newest = expected["ids_newest_first"]
    entries = expected["entries"]
    key = expected["key"]
    pages = [newest[i:i + page_size] for i in range(0, len(newest), page_size)]

    driver = make_driver()
    try:
        page = Page(driver, base_url)

        # The page loads and asks for a key.
        driver.get(page.url)
        page.wait(lambda d: page.visible("key-input"), "the key form")
        check("Message activity log" in driver.title, f"the page loads: title {driver.title!r}")
        field = page.element("key-input")
        check(field.get_attribute("type") == "password" and field.get_attribute("autocomplete") == "off",
              "the key field is a password field without autocomplete")

        # A key that may read the log shows the newest entries, a full page.
        page.enter_key(key)
        page.wait_for_rows(pages[0], "the newest page")
        check(len(page.row_ids()) == page_size, f"the first page shows {page_size} entries, newest first")
        check(page.text("page-number") == "Page 1", "page 1 is shown as such")

        # The type filter offers the gateway's own list of types, which the page was given when served.
        offered = page.js("return Array.from(document.getElementById('filter-type').options).map(o => o.value);")
        check(offered == [""] + expected["types"], f"the type filter offers the gateway's types: {offered}")

        # The key is kept in this tab's session storage only.
        stored = page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE)
        check(stored == key, "the key is in sessionStorage")
        cookie = page.js("return document.cookie;")
        check(key not in cookie, f"the key is not in document.cookie: {cookie!r}")
        check(key not in driver.current_url, f"the key is not in the URL: {driver.current_url}")
        local = page.js("return JSON.stringify(window.localStorage);")
        check(key not in local, "the key is not in localStorage")

        # Markup from the database is text: the element's text is the markup, and nothing was injected.
        script_id = expected["script_entry_id"]
        script_message = entries[script_id]["message"]
        shown = page.js(
            "return document.querySelector('#entries tr[data-id=\"' + arguments[0] + '\"] td.message').textContent;",
            script_id)
        check(shown == script_message, f"the <script> message is shown as literal text: {shown!r}")
        injected = page.js("""
            return {
              scripts: Array.from(document.scripts).map(s => s.getAttribute('src')),
              images: document.querySelectorAll('img').length,
              bold: document.querySelectorAll('#entries b, #details b').length,
              pwned: typeof window.__pwned,
            };""")
        check(injected["scripts"] == ["assets/common.js", "assets/dashboard.js"], f"no script element was injected: {injected['scripts']}")
        check(injected["images"] == 0, f"no img element was injected: {injected['images']}")
        check(injected["pwned"] == "undefined", f"window.__pwned is undefined: {injected['pwned']}")
        markup_id = expected["markup_entry_id"]
        markup_activity = page.js(
            "return document.querySelector('#entries tr[data-id=\"' + arguments[0] + '\"] td:nth-child(4)').textContent;",
            markup_id)
        check(markup_activity == entries[markup_id]["activity_id"],
              f"an activity_id with <b> markup is shown as text: {markup_activity!r}")
        check(injected["bold"] == 0, "no <b> element was made from it")

        screenshot(driver)

        # Clicking a row shows every field of the entry.
        driver.find_element(By.CSS_SELECTOR, f'#entries tr[data-id="{script_id}"]').click()
        page.wait(lambda d: page.visible("details"), "the details panel")
        fields = page.js("""
            const out = {};
            for (const dd of document.querySelectorAll('#details-fields dd')) out[dd.dataset.field] = dd.textContent;
            return out;""")
        check(set(fields) == {"id", "time", "type", "message", "app_id", "activity_id", "dispatch_id",
                              "external_id", "token", "apns_status", "apns_reason", "apns_id"},
              f"the details list every field: {sorted(fields)}")
        check(fields["id"] == script_id, f"the details are the clicked entry's: {fields['id']}")
        check(fields["dispatch_id"] == entries[script_id]["dispatch_id"], f"the details show dispatch_id: {fields['dispatch_id']}")
        check(fields["apns_id"] == expected["apns_id"], f"the details show apns_id: {fields['apns_id']}")
        check(fields["message"] == script_message, f"the details show the message as text: {fields['message']!r}")
        check(page.js("return document.querySelectorAll('img').length + document.scripts.length;") == 2,
              "the details panel injected nothing either (the page's two scripts, no image)")
        check(page.js("return typeof window.__pwned;") == "undefined", "window.__pwned is still undefined")

        # The suppressed hour: 150 in all, 100 stored, 50 only counted.
        page.wait(lambda d: page.visible("suppressed"), "the suppressed entries table")
        suppressed = page.js("""
            return Array.from(document.querySelectorAll('#suppressed tbody tr')).map(
              r => Array.from(r.querySelectorAll('td.number')).map(c => c.textContent));""")
        hour = expected["suppressed"]
        check(suppressed == [[str(hour["total"]), str(hour["stored"]), str(hour["suppressed"])]],
              f"the suppressed section shows total/stored/suppressed: {suppressed}")
        check(not page.visible("suppressed-none"), "the 'none' note is hidden when there are some")

        screenshot(driver, "-details")
        page.element("close-details").click()
        page.wait(lambda d: not page.visible("details"), "the details to close")
        check(page.js("return document.activeElement.dataset.id;") == script_id, "closing the details returns to the row")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        page.wait(lambda d: page.visible("details"), "the details opened with Enter")
        driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        page.wait(lambda d: not page.visible("details"), "Escape to close the details")
        check(True, "the details open with Enter and close with Escape")

        # Older, then Newer: each entry appears once, and the way back shows the same pages.
        driver.find_element(By.CSS_SELECTOR, f'#entries tr[data-id="{newest[1]}"]').click()
        page.wait(lambda d: page.visible("details"), "the details panel")
        seen = list(pages[0])
        for number, expected_rows in enumerate(pages[1:], start=2):
            page.click("older")
            page.wait_for_rows(expected_rows, f"page {number}")
            check(page.text("page-number") == f"Page {number}", f"older entries: page {number}")
            check(not page.visible("details"), "the details close when the page changes")
            seen += page.row_ids()
        check(not page.element("older").is_enabled(), "Older is disabled on the last page")
        check(seen == newest and len(set(seen)) == len(newest), f"every entry appears once over {len(pages)} pages")
        for number in range(len(pages) - 1, 0, -1):
            page.click("newer")
            page.wait_for_rows(pages[number - 1], f"back to page {number}")
        check(page.text("page-number") == "Page 1", "Newer comes back to page 1")
        check(not page.element("newer").is_enabled(), "Newer is disabled on page 1")

        # Filtering by type shows only that type, newest first.
        wanted = expected["filter_type"]
        of_type = [i for i in newest if entries[i]["type"] == wanted][:page_size]
        Select(page.element("filter-type")).select_by_value(wanted)
        page.element("apply-filters").click()
        page.wait_for_rows(of_type, f"entries of type {wanted}")
        labels = page.label_types()
        check(len(labels) == len(of_type) and set(labels) == {wanted},
              f"filtering by type shows only '{wanted}' labels: {len(labels)} rows")
        # Each label is the short one the gateway gave the type's option, in the colour it named.
        label, style = page.js("""
            const option = Array.from(document.getElementById('filter-type').options).find(o => o.value === arguments[0]);
            return [option.dataset.label, option.dataset.style];""", wanted)
        shown = page.js("""
            return Array.from(document.querySelectorAll('#entries tbody tr .type-label')).map(
              l => [l.textContent, l.className]);""")
        check(label and label != wanted and style and style != "type-unknown"
              and all(text == label and css == "type-label " + style for text, css in shown),
              f"the labels read '{label}' in {style}: {shown[:2]}")
        check(page.text("page-number") == "Page 1", "a new filter starts at page 1")
        check(not page.visible("suppressed"), "no suppressed hours for that type")

        page.click("clear-filters")
        page.wait_for_rows(pages[0], "the newest page after Clear")
        check(Select(page.element("filter-type")).first_selected_option.get_attribute("value") == "",
              "Clear resets the filters")

        # A bad filter: the gateway's errors are listed.
        app_field = page.element("filter-app-id")
        app_field.send_keys("no-such-app")
        page.element("apply-filters").click()
        page.wait(lambda d: page.visible("log-error"), "the error for an unknown app_id")
        check("app_id 'no-such-app' is not an app of this workspace" in page.text("log-error"),
              f"a 400 shows the gateway's errors: {page.text('log-error')!r}")
        app_field.clear()
        page.element("apply-filters").click()
        page.wait_for_rows(pages[0], "the newest page after fixing the filter")
        check(not page.visible("log-error"), "the error goes once the filters are fixed")

        # No CSP violation or script error on the way.
        problems = [entry["message"] for entry in driver.get_log("browser")
                    if entry["level"] == "SEVERE" and "400 (Bad Request)" not in entry["message"]]
        check(problems == [], f"no console errors: {problems}")

        # Forget key: back to the form, nothing kept.
        page.element("forget-key").click()
        page.wait(lambda d: page.visible("key-input"), "the key form after Forget key")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) is None,
              "Forget key removes the key from sessionStorage")
        check(page.row_ids() == [], "Forget key clears the entries")

        # A wrong key is refused and asked for again.
        page.enter_key("lg_" + "A" * 43)
        page.wait(lambda d: page.visible("key-error") and page.visible("key-input"), "the 401 message")
        check("did not accept this key" in page.text("key-error"), f"a bad key asks again: {page.text('key-error')!r}")

        # A key without message_activity_log.read gets the 403 message.
        page.enter_key(expected["forbidden_key"])
        page.wait(lambda d: page.visible("key-error") and "Access denied" in page.text("key-error"), "the 403 message")
        check("message_activity_log.read" in page.text("key-error"),
              f"a key without the permission gets the 403 message: {page.text('key-error')!r}")
        check(page.js("return window.sessionStorage.getItem(arguments[0]);", KEY_STORAGE) is None,
              "a refused key is not kept")
        check(page.row_ids() == [], "nothing is shown to a refused key")
        screenshot(driver, "-refused")
    except Exception:
        screenshot(driver, "-failure")
        raise
    finally:
        driver.quit()


def script_main(run, usage, what):
    """Every page script's command line: BASE_URL EXPECTED_JSON for `run`; 0 when its checks pass, 1 with
    what failed, 2 with `usage` for a wrong command line."""
    if len(sys.argv) != 3:
        print(usage, file=sys.stderr)
        return 2
    base_url, expected = sys.argv[1], json.loads(sys.argv[2])
    try:
        run(base_url, expected)
    except CheckFailed as failure:
        print("FAILED:", failure, file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1
    print(f"all {what} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(script_main(run, __doc__, "dashboard"))
