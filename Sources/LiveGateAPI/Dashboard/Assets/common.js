// LiveGate dashboard: what its pages share. Plain JavaScript, no build step, no dependencies; loaded
// before each page's own script, it defines one global, LiveGateDashboard.
//
// The API key is kept in this tab's sessionStorage only: never in a cookie or the URL, so following a
// link from one page to another keeps it, and closing the tab forgets it. Everything that comes from
// the gateway is put in the page with textContent and createElement, never parsed as HTML, so it is
// shown as text, whatever it contains.
(function () {
  'use strict';

  const KEY_STORAGE = 'livegate.dashboard.apiKey';
  const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

  // Braze's type names, each with a short label and its own colour: read from `<option>`s the gateway
  // writes into each page from its own list of types (readTypes).
  const TYPES = {};

  const $ = (id) => document.getElementById(id);

  // ---- Small DOM helpers: every text goes through textContent. ----

  function element(tag, options, children) {
    const node = document.createElement(tag);
    const settings = options || {};
    if (settings.className) node.className = settings.className;
    if (settings.text !== undefined && settings.text !== null) node.textContent = String(settings.text);
    if (settings.title) node.title = settings.title;
    if (settings.attributes) {
      for (const [name, value] of Object.entries(settings.attributes)) node.setAttribute(name, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function none() {
    return element('span', { className: 'none' }, [
      element('span', { text: '—', attributes: { 'aria-hidden': 'true' } }),
      element('span', { className: 'visually-hidden', text: 'none' }),
    ]);
  }

  function textOrNone(value, className) {
    if (value === null || value === undefined || value === '') return none();
    return element('span', { className: className, text: value });
  }

  function readTypes(list) {
    for (const option of list.options) {
      if (option.value) TYPES[option.value] = { label: option.dataset.label, css: option.dataset.style };
    }
  }

  function typeLabel(type) {
    const known = TYPES[type];
    return element('span', {
      className: 'type-label ' + (known ? known.css : 'type-unknown'),
      text: known ? known.label : type,
      title: type,
      attributes: { 'data-type': type },
    });
  }

  // APNs's status and reason, as one text.
  function apnsAnswer(entry) {
    if (entry.apns_status === null || entry.apns_status === undefined) return none();
    const parts = [entry.apns_status, entry.apns_reason].filter((part) => part !== null && part !== undefined);
    return element('span', { text: parts.join(' ') });
  }

  // ---- Dispatches: a dispatch's page is dispatch?id=<uuid>, beside the log page. ----

  function isUUID(text) {
    return typeof text === 'string' && UUID_PATTERN.test(text);
  }

  // A link to the dispatch's page, or the id as plain text if it is not a UUID (it never is anything
  // else, but the link's address is only ever made from one).
  function dispatchLink(id, className) {
    if (!isUUID(id)) return textOrNone(id, className);
    return element('a', {
      className: className,
      text: id,
      attributes: { href: 'dispatch?id=' + encodeURIComponent(id.toLowerCase()) },
    });
  }

  // ---- Activities: an activity's page is activity?app_id=…&activity_id=…, beside the others. ----

  // Both parameters percent-encoded with encodeURIComponent: the page reads them with URLSearchParams,
  // which would take a bare '+' for a space.
  function activityHref(appID, activityID) {
    return 'activity?app_id=' + encodeURIComponent(appID) + '&activity_id=' + encodeURIComponent(activityID);
  }

  // A link to the activity's page, reading `text` (the activity ID unless given); the ID as plain text
  // when the app is not known.
  function activityLink(appID, activityID, text, className) {
    const shown = text === undefined ? activityID : text;
    if (!appID || !activityID) return textOrNone(shown, className);
    return element('a', {
      className: className,
      text: shown,
      attributes: { href: activityHref(String(appID), String(activityID)) },
    });
  }

  // ---- Times: the API speaks UTC (microseconds in the log, milliseconds elsewhere); people read
  // their local time. ----

  function parseTime(iso) {
    // Date parses milliseconds; the log gives microseconds.
    return new Date(String(iso).replace(/(\.\d{3})\d+/, '$1'));
  }

  const formats = {
    local: new Intl.DateTimeFormat(undefined, {
      year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
    }),
    // In tables: entries are kept for days, not years.
    row: new Intl.DateTimeFormat(undefined, {
      month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
    }),
    hour: new Intl.DateTimeFormat(undefined, {
      year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
    }),
  };

  function timeElement(iso, format) {
    const date = parseTime(iso);
    const shown = isNaN(date.getTime()) ? iso : format.format(date);
    return element('time', { text: shown, title: iso + ' (UTC)', attributes: { datetime: iso } });
  }

  // ---- The key ----

  function storedKey() {
    return window.sessionStorage.getItem(KEY_STORAGE);
  }

  function keepKey(key) {
    window.sessionStorage.setItem(KEY_STORAGE, key);
  }

  function dropKey() {
    window.sessionStorage.removeItem(KEY_STORAGE);
  }

  // Every page's key form: a pasted key is kept and the page goes on with `then`; an empty one is
  // refused in the form's error box.
  function onKeyEntered(then) {
    $('key-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const key = $('key-input').value.trim();
      if (!key) {
        showError($('key-error'), 'Paste an API key first.');
        return;
      }
      keepKey(key);
      $('key-input').value = '';
      showError($('key-error'), null);
      then();
    });
  }

  // ---- Errors ----

  function showError(box, message, details, retry) {
    box.replaceChildren();
    if (!message) {
      box.hidden = true;
      return;
    }
    box.append(element('p', { text: message }));
    if (details && details.length > 0) {
      box.append(element('ul', {}, details.map((detail) => element('li', { text: detail }))));
    }
    if (retry) {
      const button = element('button', { className: 'secondary', text: 'Try again', attributes: { type: 'button' } });
      button.addEventListener('click', retry);
      box.append(button);
    }
    box.hidden = false;
  }

  function errorsOf(body) {
    return body && Array.isArray(body.errors) ? body.errors.map(String) : [];
  }

  // ---- The JSON API ----

  // Calls the gateway with the stored key. Answers { status, ok, message, body }, body null when it was
  // not JSON; throws when the gateway could not be reached.
  async function callAPI(url, key, method) {
    const response = await fetch(url, {
      method: method || 'GET',
      headers: { Authorization: 'Bearer ' + key, Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    const message = body && typeof body.message === 'string' ? body.message : response.statusText;
    return { status: response.status, ok: response.ok, message: message, body: body };
  }

  // A URL of the API, from a page under /dashboard/, with parameters percent-encoded:
  // encodeURIComponent, not URLSearchParams, because the gateway reads '+' as a plus, not a space.
  function apiURL(path, parameters) {
    const url = new URL('../' + path, window.location.href);
    url.search = (parameters || []).map(([name, value]) => name + '=' + encodeURIComponent(value)).join('&');
    return url;
  }

  function unreachable(error) {
    return 'Could not reach the gateway (' + (error && error.message ? error.message : 'network error') +
      '). Check that it is running and that you are online, then try again.';
  }

  window.LiveGateDashboard = Object.freeze({
    $, element, none, textOrNone, readTypes, typeLabel, apnsAnswer, isUUID, dispatchLink, activityHref, activityLink,
    parseTime, formats, timeElement, storedKey, dropKey, onKeyEntered, showError, errorsOf, callAPI, apiURL,
    unreachable,
  });
})();
