// LiveGate dashboard: the message activity log page. Plain JavaScript, no build step, no
// dependencies; common.js (loaded first) keeps the key and puts the gateway's data in the page as text.
(function () {
  'use strict';

  const {
    $, element, none, textOrNone, readTypes, typeLabel, apnsAnswer, isUUID, dispatchLink, activityLink, parseTime, formats,
    timeElement, storedKey, onKeyEntered, dropKey, showError, errorsOf, callAPI, apiURL, unreachable,
  } = window.LiveGateDashboard;

  const PAGE_SIZE = 25;
  const FILTERS = ['app_id', 'type', 'activity_id', 'external_id', 'since', 'until'];

  const state = {
    filters: {},
    // The cursor each page was fetched with, the current page's last: null for the newest page.
    cursors: [null],
    nextCursor: null,
    entries: [],
    selectedID: null,
    detailsOpener: null,
    request: 0,
  };

  // A datetime-local value ("2025-11-22T09:00" or with seconds) is the viewer's local time.
  function toISO(localValue) {
    if (!localValue) return null;
    const date = new Date(localValue);
    return isNaN(date.getTime()) ? undefined : date.toISOString();
  }

  // ---- The key ----

  function showKeyForm(message, details) {
    $('log-section').hidden = true;
    $('key-status').hidden = true;
    $('key-section').hidden = false;
    showError($('key-error'), message, details);
    $('key-input').value = '';
    $('key-input').focus();
  }

  function showLogSection() {
    $('key-section').hidden = true;
    $('key-status').hidden = false;
    $('log-section').hidden = false;
    showError($('key-error'), null);
  }

  function forgetKey(message, details) {
    dropKey();
    state.request += 1; // answers still on their way are ignored
    state.cursors = [null];
    state.nextCursor = null;
    clearEntries();
    showKeyForm(message, details);
  }

  // ---- Loading a page ----

  function query() {
    const parameters = [];
    for (const name of FILTERS) {
      if (state.filters[name]) parameters.push([name, state.filters[name]]);
    }
    parameters.push(['limit', String(PAGE_SIZE)]);
    const cursor = state.cursors[state.cursors.length - 1];
    if (cursor) parameters.push(['cursor', cursor]);
    return apiURL('message_activity_log', parameters);
  }

  async function load() {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    const request = ++state.request;
    setBusy(true);
    let response;
    try {
      response = await callAPI(query(), key);
    } catch (error) {
      if (request !== state.request) return;
      setBusy(false);
      $('status').textContent = '';
      showError($('log-error'), unreachable(error), [], load);
      return;
    }
    if (request !== state.request) return; // a newer request was made meanwhile
    setBusy(false);
    $('status').textContent = '';

    const { body, message } = response;
    if (response.status === 401) {
      forgetKey('The gateway did not accept this key (' + message + '). Paste a valid API key.', errorsOf(body));
      return;
    }
    if (response.status === 403) {
      forgetKey(
        'Access denied: this key does not have the message_activity_log.read permission, ' +
        'or may not be used from this address. Paste a key that may read the log.', errorsOf(body));
      return;
    }
    if (response.status === 400) {
      showError($('log-error'), 'The gateway refused these filters: ' + message, errorsOf(body));
      return;
    }
    if (!response.ok || !body || !Array.isArray(body.entries)) {
      showError($('log-error'),
        'The gateway answered ' + response.status + (message ? ': ' + message : '') + '.', errorsOf(body), load);
      return;
    }
    showError($('log-error'), null);
    state.entries = body.entries;
    state.nextCursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
    renderEntries();
    renderSuppressed(Array.isArray(body.suppressed) ? body.suppressed : []);
  }

  function setBusy(busy) {
    $('entries').setAttribute('aria-busy', busy ? 'true' : 'false');
    if (busy) {
      $('status').textContent = 'Loading…';
      $('newer').disabled = true;
      $('older').disabled = true;
    }
  }

  // ---- Rendering ----

  function clearEntries() {
    state.entries = [];
    state.selectedID = null;
    $('entries').tBodies[0].replaceChildren();
    $('suppressed').tBodies[0].replaceChildren();
    $('status').textContent = '';
    hideDetails();
  }

  function renderEntries() {
    const tbody = $('entries').tBodies[0];
    const rows = state.entries.map((entry) => {
      const row = element('tr', { attributes: { 'data-id': String(entry.id), tabindex: '0' } }, [
        element('td', {}, [timeElement(entry.time, formats.row)]),
        element('td', {}, [typeLabel(entry.type)]),
        element('td', { className: 'mono clip', title: entry.app_id }, [textOrNone(entry.app_id)]),
        element('td', { className: 'clip', title: entry.activity_id }, [textOrNone(entry.activity_id)]),
        element('td', { className: 'clip', title: entry.external_id }, [textOrNone(entry.external_id)]),
        element('td', { className: 'mono' }, [textOrNone(entry.token)]),
        element('td', {}, [apnsAnswer(entry)]),
        element('td', { className: 'message', text: entry.message, title: entry.message }),
      ]);
      if (String(entry.id) === state.selectedID) row.classList.add('selected');
      row.addEventListener('click', () => showDetails(entry, row));
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          showDetails(entry, row);
        }
      });
      return row;
    });
    if (rows.length === 0) {
      const filtered = FILTERS.some((name) => state.filters[name]);
      rows.push(element('tr', { className: 'empty' }, [
        element('td', {
          text: filtered ? 'No entries match these filters.' : 'No entries: nothing has gone wrong lately.',
          attributes: { colspan: '8' },
        }),
      ]));
    }
    tbody.replaceChildren(...rows);

    const page = state.cursors.length;
    $('page-number').textContent = 'Page ' + page;
    $('newer').disabled = page === 1;
    $('older').disabled = state.nextCursor === null;
    const count = state.entries.length;
    $('status').textContent = count === 0 ? '' :
      count + (count === 1 ? ' entry' : ' entries') + (state.nextCursor ? '; older ones on the next pages' : '');
  }

  function renderSuppressed(hours) {
    const table = $('suppressed');
    table.tBodies[0].replaceChildren(...hours.map((hour) => element('tr', {}, [
      element('td', {}, [timeElement(hour.hour, formats.hour)]),
      element('td', { className: 'mono' }, [textOrNone(hour.app_id)]),
      element('td', {}, [typeLabel(hour.type)]),
      element('td', { className: 'number', text: hour.total }),
      element('td', { className: 'number', text: hour.stored }),
      element('td', { className: 'number', text: hour.suppressed }),
    ])));
    table.hidden = hours.length === 0;
    $('suppressed-none').hidden = hours.length > 0;
  }

  // ---- Details ----

  const DETAIL_FIELDS = [
    ['id', 'ID'],
    ['time', 'Time (UTC)'],
    ['type', 'Type'],
    ['message', 'Message'],
    ['app_id', 'App ID'],
    ['activity_id', 'Activity ID'],
    ['dispatch_id', 'Dispatch ID'],
    ['external_id', 'External ID'],
    ['token', 'Token'],
    ['apns_status', 'APNs status'],
    ['apns_reason', 'APNs reason'],
    ['apns_id', 'apns-id'],
  ];

  // The details object's fields as they came, one line each; a webhook's id links to the webhooks page.
  function detailsList(details) {
    const items = [];
    for (const [name, value] of Object.entries(details)) {
      let shown;
      if (name === 'webhook_id' && isUUID(value)) {
        shown = element('a', { className: 'mono', text: value, attributes: { href: 'webhooks' } });
      } else if (value !== null && typeof value === 'object') {
        shown = textOrNone(JSON.stringify(value));
      } else {
        shown = textOrNone(value === null || value === undefined ? null : String(value));
      }
      items.push(element('dt', { text: name }));
      items.push(element('dd', { attributes: { 'data-detail': name } }, [shown]));
    }
    return element('dl', { className: 'details-object' }, items);
  }

  function showDetails(entry, row) {
    state.selectedID = String(entry.id);
    for (const other of $('entries').tBodies[0].rows) other.classList.remove('selected');
    row.classList.add('selected');

    const fields = [];
    for (const [name, label] of DETAIL_FIELDS) {
      const value = entry[name];
      let shown;
      if (name === 'type') {
        shown = [typeLabel(value), element('div', { text: value })];
      } else if (name === 'time') {
        shown = [element('div', { text: value }), element('div', { className: 'muted', text: formats.local.format(parseTime(value)) + ' (local)' })];
      } else if (name === 'dispatch_id') {
        // The dispatch's own page: its status, counts and every entry it caused.
        shown = [value ? dispatchLink(String(value), 'mono') : none()];
      } else if (name === 'activity_id') {
        // The activity's page: its devices, what each last reported, and its dispatches.
        shown = [value ? activityLink(entry.app_id, String(value)) : none()];
      } else {
        shown = [textOrNone(value === null || value === undefined ? null : String(value),
          ['apns_id', 'token', 'app_id'].includes(name) ? 'mono' : undefined)];
      }
      fields.push(element('dt', { text: label }));
      fields.push(element('dd', { attributes: { 'data-field': name } }, shown));
    }
    // An entry not about a device (a webhook endpoint's pause or resumption) says what it is about here.
    if (entry.details && typeof entry.details === 'object') {
      fields.push(element('dt', { text: 'Details' }));
      fields.push(element('dd', { attributes: { 'data-field': 'details' } }, [detailsList(entry.details)]));
    }
    $('details-fields').replaceChildren(...fields);
    $('details-heading').textContent = 'Entry ' + entry.id;
    $('details').hidden = false;
    state.detailsOpener = row;
    $('details-heading').focus();
  }

  function hideDetails(returnFocus) {
    const wasOpen = !$('details').hidden;
    $('details').hidden = true;
    $('details-fields').replaceChildren();
    state.selectedID = null;
    for (const row of $('entries').tBodies[0].rows) row.classList.remove('selected');
    if (wasOpen && returnFocus && state.detailsOpener && state.detailsOpener.isConnected) state.detailsOpener.focus();
    state.detailsOpener = null;
  }

  // ---- Filters and paging ----

  function readFilters() {
    const form = $('filters');
    const filters = {};
    const problems = [];
    for (const name of FILTERS) {
      const value = form.elements[name].value.trim();
      if (!value) continue;
      if (name === 'since' || name === 'until') {
        const iso = toISO(value);
        if (iso === undefined) {
          problems.push(name + ' is not a valid date and time');
          continue;
        }
        filters[name] = iso;
      } else {
        filters[name] = value;
      }
    }
    return { filters, problems };
  }

  function applyFilters() {
    const { filters, problems } = readFilters();
    if (problems.length > 0) {
      showError($('log-error'), 'Check the filters:', problems);
      return;
    }
    state.filters = filters;
    state.cursors = [null];
    hideDetails();
    load();
  }

  // ---- Wiring ----

  document.addEventListener('DOMContentLoaded', () => {
    readTypes($('filter-type'));
    onKeyEntered(() => {
      showLogSection();
      state.cursors = [null];
      load();
    });
    $('forget-key').addEventListener('click', () => forgetKey(null));
    $('filters').addEventListener('submit', (event) => {
      event.preventDefault();
      applyFilters();
    });
    $('clear-filters').addEventListener('click', () => {
      $('filters').reset();
      applyFilters();
    });
    $('refresh').addEventListener('click', () => load());
    $('older').addEventListener('click', () => {
      if (!state.nextCursor) return;
      state.cursors.push(state.nextCursor);
      hideDetails();
      load();
    });
    $('newer').addEventListener('click', () => {
      if (state.cursors.length <= 1) return;
      state.cursors.pop();
      hideDetails();
      load();
    });
    $('close-details').addEventListener('click', () => hideDetails(true));
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !$('details').hidden) hideDetails(true);
    });

    if (storedKey()) {
      showLogSection();
      load();
    } else {
      showKeyForm(null);
    }
  });
})();
