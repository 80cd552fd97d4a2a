// LiveGate dashboard: one dispatch's page (dispatch?id=<uuid>). Plain JavaScript, no build step, no
// dependencies; common.js (loaded first) keeps the key and puts the gateway's data in the page as text.
//
// The page reads GET /messages/live_activity/dispatches/{id} and the dispatch's log entries
// (GET /message_activity_log?dispatch_id=…), and reads them again every few seconds while the dispatch
// may still send (scheduled, pending, delivering); once it has finished, nothing changes any more and
// it stops asking.
(function () {
  'use strict';

  const {
    $, element, none, textOrNone, readTypes, typeLabel, apnsAnswer, isUUID, dispatchLink, activityHref, activityLink,
    formats, timeElement, storedKey, onKeyEntered, dropKey, showError, errorsOf, callAPI, apiURL, unreachable,
  } = window.LiveGateDashboard;

  const PAGE_SIZE = 50;
  // While it may send: often enough to watch a fan-out, rarely enough to cost the gateway nothing.
  const REFRESH_MS = 2000;
  // A dispatch scheduled more than a minute ahead changes only when someone cancels or supersedes it.
  const SCHEDULED_REFRESH_MS = 10000;
  const UNFINISHED = ['scheduled', 'pending', 'delivering'];
  const STATUSES = {
    scheduled: ['Scheduled', 'Accepted; it is sent at its send_at.'],
    pending: ['Pending', 'Due; waiting for a delivery worker.'],
    delivering: ['Delivering', 'Being sent to its devices.'],
    done: ['Done', 'Sent to every device it could reach.'],
    failed: ['Failed', 'Given up; the log entries below say why.'],
    superseded: ['Superseded', 'A newer update or end for the same audience took over before it had finished; what it sent is counted.'],
    cancelled: ['Cancelled', 'Cancelled before it had finished; what it sent is counted.'],
  };

  const requested = new URLSearchParams(window.location.search).get('id');
  const dispatchID = isUUID(requested) ? requested.toLowerCase() : null;

  const state = {
    dispatch: null,
    // The cursor each page of entries was fetched with, the current page's last: null for the newest.
    cursors: [null],
    nextCursor: null,
    request: 0,
    timer: null,
  };

  // ---- Sections ----

  function show(section) {
    $('lookup-section').hidden = section !== 'lookup';
    $('key-section').hidden = section !== 'key';
    $('dispatch-section').hidden = section !== 'dispatch';
    $('key-status').hidden = section === 'key' || !storedKey();
  }

  function showLookup(message) {
    stopRefreshing();
    show('lookup');
    showError($('lookup-error'), message);
    $('lookup-input').focus();
  }

  function showKeyForm(message, details) {
    stopRefreshing();
    show('key');
    showError($('key-error'), message, details);
    $('key-input').value = '';
    $('key-input').focus();
  }

  function forgetKey(message, details) {
    dropKey();
    state.request += 1; // answers still on their way are ignored
    state.dispatch = null;
    state.cursors = [null];
    $('dispatch-entries').tBodies[0].replaceChildren();
    showKeyForm(message, details);
  }

  // ---- Refreshing ----

  function stopRefreshing() {
    window.clearTimeout(state.timer);
    state.timer = null;
    $('dispatch-section').dataset.refreshing = 'false';
  }

  // Asks again later while the dispatch may still change; says which.
  function scheduleRefresh() {
    stopRefreshing();
    const dispatch = state.dispatch;
    if (!dispatch || !UNFINISHED.includes(dispatch.status)) {
      $('refresh-note').textContent = dispatch ? 'Finished: this page no longer refreshes.' : '';
      return;
    }
    let delay = REFRESH_MS;
    if (dispatch.status === 'scheduled' && dispatch.send_at && Date.parse(dispatch.send_at) - Date.now() > 60000) {
      delay = SCHEDULED_REFRESH_MS;
    }
    $('refresh-note').textContent = 'Refreshing every ' + delay / 1000 + ' s while it is ' + dispatch.status + '.';
    $('dispatch-section').dataset.refreshing = 'true';
    state.timer = window.setTimeout(() => {
      // A hidden tab asks nothing; it catches up when it is shown again (visibilitychange).
      if (document.hidden) scheduleRefresh();
      else load();
    }, delay);
  }

  // ---- Loading ----

  function dispatchURL() {
    return apiURL('messages/live_activity/dispatches/' + encodeURIComponent(dispatchID));
  }

  function entriesURL() {
    const parameters = [['dispatch_id', dispatchID], ['limit', String(PAGE_SIZE)]];
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
    stopRefreshing();
    const request = ++state.request;
    setBusy(true);
    let dispatchAnswer, entriesAnswer;
    try {
      [dispatchAnswer, entriesAnswer] = await Promise.all([callAPI(dispatchURL(), key), callAPI(entriesURL(), key)]);
    } catch (error) {
      if (request !== state.request) return;
      setBusy(false);
      showError($('page-error'), unreachable(error), [], load);
      scheduleRefresh(); // a gateway back soon is noticed without a click
      return;
    }
    if (request !== state.request) return; // a newer request was made meanwhile
    setBusy(false);
    if (!takeDispatch(dispatchAnswer)) return;
    takeEntries(entriesAnswer);
    scheduleRefresh();
  }

  // Not dimmed nor disabled while busy, unlike the log page: the table would flicker every refresh. A
  // page asked for meanwhile wins: the older answer is ignored (state.request).
  function setBusy(busy) {
    $('dispatch-entries').setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  // Shows the dispatch from the gateway's answer; false when there is none to show.
  function takeDispatch(answer) {
    const { status, message, body } = answer;
    if (status === 401) {
      forgetKey('The gateway did not accept this key (' + message + '). Paste a valid API key.', errorsOf(body));
      return false;
    }
    if (status === 403) {
      forgetKey(
        'Access denied: this key may not read dispatches (it needs message_activity_log.read, ' +
        'messages.live_activity.update or messages.live_activity.start), or may not be used from this address.',
        errorsOf(body));
      return false;
    }
    if (status === 404) {
      state.dispatch = null;
      showLookup('No dispatch ' + dispatchID + ' in this key\'s workspace. Finished dispatches are deleted ' +
        'with the activity log, after 60 hours by default.');
      return false;
    }
    if (!answer.ok || !body || typeof body.status !== 'string') {
      showError($('page-error'),
        'The gateway answered ' + status + (message ? ': ' + message : '') + '.', errorsOf(body), load);
      scheduleRefresh();
      return false;
    }
    showError($('page-error'), null);
    renderDispatch(body);
    return true;
  }

  function takeEntries(answer) {
    const { status, message, body } = answer;
    if (status === 403) {
      $('dispatch-entries').tBodies[0].replaceChildren();
      $('status').textContent = '';
      showError($('entries-error'),
        'This key may not read the message activity log (message_activity_log.read): the entries are not shown.');
      return;
    }
    if (!answer.ok || !body || !Array.isArray(body.entries)) {
      showError($('entries-error'),
        'The gateway answered ' + status + (message ? ': ' + message : '') + ' for the log entries.', errorsOf(body));
      return;
    }
    showError($('entries-error'), null);
    state.nextCursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
    renderEntries(body.entries);
  }

  // ---- Rendering ----

  function timeWithUTC(iso) {
    return [timeElement(iso, formats.local), element('span', { className: 'muted utc', text: iso })];
  }

  function renderDispatch(dispatch) {
    state.dispatch = dispatch;
    const known = STATUSES[dispatch.status];
    const label = $('dispatch-status');
    label.textContent = known ? known[0] : dispatch.status;
    label.className = 'status-label ' + (known ? 'status-' + dispatch.status : 'status-unknown');
    label.dataset.status = dispatch.status;
    $('status-hint').textContent = known ? known[1] : '';
    $('dispatch-id').textContent = dispatch.dispatch_id;
    document.title = 'Dispatch ' + String(dispatch.dispatch_id).slice(0, 8) + ' (' + dispatch.status + ') · LiveGate';

    const unfinished = UNFINISHED.includes(dispatch.status);
    const fields = {
      event: [textOrNone(dispatch.event)],
      app_id: [textOrNone(dispatch.app_id)],
      // The activity's page: its devices, what each last reported, and its other dispatches.
      activity_id: [activityLink(dispatch.app_id, dispatch.activity_id)],
      external_id: dispatch.external_id
        ? [textOrNone(dispatch.external_id)]
        : [none(), element('span', { className: 'muted', text: ' every device of the activity' })],
      audience: audienceCells(dispatch.audience),
      accepted_at: timeWithUTC(dispatch.accepted_at),
      send_at: dispatch.send_at ? timeWithUTC(dispatch.send_at) : [element('span', { className: 'muted', text: 'at once' })],
      completed_at: dispatch.completed_at
        ? timeWithUTC(dispatch.completed_at)
        : [element('span', { className: 'muted', text: unfinished ? 'not yet' : '—' })],
      superseded_by: dispatch.superseded_by ? [dispatchLink(String(dispatch.superseded_by), 'mono')] : [none()],
    };
    for (const cell of $('dispatch-fields').querySelectorAll('dd[data-field]')) {
      cell.replaceChildren(...(fields[cell.dataset.field] || [none()]));
    }
    const activity = $('activity-link');
    if (dispatch.app_id && dispatch.activity_id) {
      activity.setAttribute('href', activityHref(String(dispatch.app_id), String(dispatch.activity_id)));
      activity.hidden = false;
    } else {
      activity.removeAttribute('href');
      activity.hidden = true;
    }

    const devices = dispatch.devices || {};
    for (const name of ['sent', 'failed', 'retried', 'removed']) {
      $('count-' + name).textContent = String(Number.isInteger(devices[name]) ? devices[name] : 0);
    }
    $('cancel-dispatch').hidden = !unfinished;
    $('dispatch-section').hidden = false;
  }

  // A start to an audience: its segment and its custom_audience as given, evaluated when delivered.
  function audienceCells(audience) {
    if (!audience || typeof audience !== 'object') return [none()];
    const cells = [];
    if (audience.segment_id) cells.push(element('span', { text: 'segment ' }), element('span', { className: 'mono', text: String(audience.segment_id) }));
    if (audience.custom_audience) {
      if (cells.length) cells.push(element('span', { className: 'muted', text: ' and ' }));
      cells.push(element('code', { className: 'mono', text: JSON.stringify(audience.custom_audience) }));
    }
    cells.push(element('span', { className: 'muted', text: ' · users with a push-to-start token for ' + String(audience.activity_attributes_type) }));
    return cells;
  }

  function renderEntries(entries) {
    const rows = entries.map((entry) => element('tr', { attributes: { 'data-id': String(entry.id) } }, [
      element('td', {}, [timeElement(entry.time, formats.row)]),
      element('td', {}, [typeLabel(entry.type)]),
      element('td', { className: 'clip', title: entry.external_id }, [textOrNone(entry.external_id)]),
      element('td', { className: 'mono' }, [textOrNone(entry.token)]),
      element('td', {}, [apnsAnswer(entry)]),
      element('td', { className: 'message', text: entry.message }),
    ]));
    if (rows.length === 0) {
      const status = state.dispatch ? state.dispatch.status : null;
      const text = status === 'done' ? 'No entries: nothing went wrong with this dispatch.'
        : UNFINISHED.includes(status) ? 'No entries yet.' : 'No entries.';
      rows.push(element('tr', { className: 'empty' }, [element('td', { text: text, attributes: { colspan: '6' } })]));
    }
    $('dispatch-entries').tBodies[0].replaceChildren(...rows);
    const page = state.cursors.length;
    $('page-number').textContent = 'Page ' + page;
    $('newer').disabled = page === 1;
    $('older').disabled = state.nextCursor === null;
    const count = entries.length;
    $('status').textContent = count === 0 ? '' :
      count + (count === 1 ? ' entry' : ' entries') + (state.nextCursor ? '; older ones on the next pages' : '');
  }

  // ---- Cancelling ----

  async function cancel() {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    if (!window.confirm('Cancel dispatch ' + dispatchID + '? Devices it has not reached yet will not get it.')) return;
    const button = $('cancel-dispatch');
    button.disabled = true;
    let answer;
    try {
      answer = await callAPI(dispatchURL(), key, 'DELETE');
    } catch (error) {
      button.disabled = false;
      showError($('cancel-error'), unreachable(error));
      return;
    }
    button.disabled = false;
    const { status, message, body } = answer;
    if (status === 403) {
      showError($('cancel-error'),
        'This key may not cancel dispatches: that takes messages.live_activity.update or messages.live_activity.start.',
        errorsOf(body));
      return;
    }
    if (status === 409) {
      // It finished meanwhile: say so, and show how.
      showError($('cancel-error'), message, errorsOf(body));
      load();
      return;
    }
    if (status === 200 && body && typeof body.status === 'string') {
      showError($('cancel-error'), null);
      state.request += 1; // a refresh on its way predates the cancellation
      renderDispatch(body);
      load();
      return;
    }
    if (status === 401 || status === 404) {
      takeDispatch(answer);
      return;
    }
    showError($('cancel-error'), 'The gateway answered ' + status + (message ? ': ' + message : '') + '.', errorsOf(body));
  }

  // ---- Wiring ----

  document.addEventListener('DOMContentLoaded', () => {
    readTypes($('log-types'));
    $('lookup-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const id = $('lookup-input').value.trim();
      if (!isUUID(id)) {
        showError($('lookup-error'), 'A dispatch ID is a UUID, such as 0b7e3f1c-9a55-4b7e-8d0e-6f4f2b8c1a90.');
        return;
      }
      window.location.assign('dispatch?id=' + encodeURIComponent(id.toLowerCase()));
    });
    onKeyEntered(() => {
      show('dispatch');
      $('dispatch-section').hidden = true; // until there is a dispatch to show
      load();
    });
    $('forget-key').addEventListener('click', () => forgetKey(null));
    $('refresh').addEventListener('click', () => load());
    $('cancel-dispatch').addEventListener('click', () => cancel());
    $('older').addEventListener('click', () => {
      if (!state.nextCursor) return;
      state.cursors.push(state.nextCursor);
      load();
    });
    $('newer').addEventListener('click', () => {
      if (state.cursors.length <= 1) return;
      state.cursors.pop();
      load();
    });
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && state.timer !== null) load();
    });

    if (!dispatchID) {
      showLookup(requested ? 'The address does not name a dispatch: "' + requested + '" is not a dispatch ID.' : null);
    } else if (!storedKey()) {
      showKeyForm(null);
    } else {
      show('dispatch');
      $('dispatch-section').hidden = true; // until there is a dispatch to show
      load();
    }
  });
})();
