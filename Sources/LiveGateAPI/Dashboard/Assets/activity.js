// LiveGate dashboard: one activity's page (activity?app_id=<app>&activity_id=<tag>). Plain JavaScript, no
// build step, no dependencies; common.js (loaded first) keeps the key and puts the gateway's data in the
// page as text.
//
// The page reads GET /live_activity/activities/{activity_id}?app_id=…: the activity's device counts, its
// channel, a page of its devices ("More devices" appends the next one, by the answer's next_cursor) and
// its latest dispatches, drawn oldest to newest as bars of the devices each reached and, for a start,
// confirmed. It asks again only when told to (Refresh, a new search).
(function () {
  'use strict';

  const {
    $, element, none, textOrNone, isUUID, dispatchLink, activityHref, parseTime, formats, timeElement,
    storedKey, onKeyEntered, dropKey, showError, errorsOf, callAPI, apiURL, unreachable,
  } = window.LiveGateDashboard;

  const PAGE_SIZE = 50;
  const COUNTS = ['devices', 'with_token', 'active', 'stale', 'ended', 'dismissed', 'unreported', 'channel_members'];
  const STATES = ['active', 'stale', 'ended', 'dismissed'];
  const CHANNEL_STATES = ['live', 'ending', 'gone'];
  const UNFINISHED = ['scheduled', 'pending', 'delivering'];
  const STATUSES = {
    scheduled: 'Scheduled',
    pending: 'Pending',
    delivering: 'Delivering',
    done: 'Done',
    failed: 'Failed',
    superseded: 'Superseded',
    cancelled: 'Cancelled',
  };
  const SVG = 'http://www.w3.org/2000/svg';
  // The chart, in pixels: one slot per dispatch, its bars over a baseline, its labels under it.
  const CHART = { slot: 92, bar: 22, gap: 4, top: 20, plot: 120, bottom: 54, side: 8 };
  const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

  const state = {
    appID: null,
    activityID: null,
    // The devices shown so far, and where the next page starts (null on the last).
    devices: [],
    nextCursor: null,
    totalDevices: 0,
    request: 0,
  };

  // ---- The address ----

  // The app and activity the address names, as they are (an activity ID may hold spaces); either null
  // when it does not.
  function readAddress() {
    const parameters = new URLSearchParams(window.location.search);
    const appID = parameters.get('app_id') || '';
    const activityID = parameters.get('activity_id') || '';
    state.appID = appID || null;
    state.activityID = activityID || null;
    $('search-app-id').value = appID;
    $('search-activity-id').value = activityID;
  }

  // ---- Sections ----

  function show(section) {
    $('key-section').hidden = section !== 'key';
    $('search-form').hidden = section === 'key';
    $('activity-section').hidden = section !== 'activity';
    $('key-status').hidden = section === 'key' || !storedKey();
  }

  function showSearch(message, details) {
    show('search');
    showError($('search-error'), message, details);
    const empty = !$('search-app-id').value ? $('search-app-id') : $('search-activity-id');
    empty.focus();
  }

  function showKeyForm(message, details) {
    show('key');
    showError($('key-error'), message, details);
    $('key-input').value = '';
    $('key-input').focus();
  }

  function forgetKey(message, details) {
    dropKey();
    state.request += 1; // answers still on their way are ignored
    clearActivity();
    showKeyForm(message, details);
  }

  function clearActivity() {
    state.devices = [];
    state.nextCursor = null;
    state.totalDevices = 0;
    $('devices').tBodies[0].replaceChildren();
    $('dispatches').tBodies[0].replaceChildren();
    $('timeline').replaceChildren();
    $('status').textContent = '';
    $('more-devices').hidden = true;
    $('more-devices').disabled = false;
    $('timeline-legend').hidden = true;
    showError($('devices-error'), null);
  }

  // ---- Loading ----

  function activityURL(cursor) {
    const parameters = [['app_id', state.appID], ['limit', String(PAGE_SIZE)]];
    if (cursor) parameters.push(['cursor', cursor]);
    return apiURL('live_activity/activities/' + encodeURIComponent(state.activityID), parameters);
  }

  // The first page of devices, with the counts, the channel and the dispatches.
  async function load() {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    if (!state.appID || !state.activityID) {
      clearActivity();
      showSearch(null);
      return;
    }
    const request = ++state.request;
    setBusy(true);
    let answer;
    try {
      answer = await callAPI(activityURL(null), key);
    } catch (error) {
      if (request !== state.request) return;
      setBusy(false);
      showError($('page-error'), unreachable(error), [], load);
      return;
    }
    if (request !== state.request) return; // a newer request was made meanwhile
    setBusy(false);
    if (!takeAnswer(answer, load)) return;
    showError($('page-error'), null);
    showError($('search-error'), null);
    state.devices = [];
    renderActivity(answer.body);
    addDevices(answer.body);
    show('activity');
  }

  // The next page of devices, appended to those shown.
  async function loadMore() {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    if (!state.nextCursor) return;
    const request = ++state.request;
    const button = $('more-devices');
    button.disabled = true;
    setBusy(true);
    let answer;
    try {
      answer = await callAPI(activityURL(state.nextCursor), key);
    } catch (error) {
      if (request !== state.request) return;
      button.disabled = false;
      setBusy(false);
      showError($('devices-error'), unreachable(error), [], loadMore);
      return;
    }
    if (request !== state.request) return;
    button.disabled = false;
    setBusy(false);
    const { status, message, body } = answer;
    if (status === 401 || status === 403) {
      takeAnswer(answer, loadMore);
      return;
    }
    if (!answer.ok || !body || !Array.isArray(body.devices)) {
      showError($('devices-error'),
        'The gateway answered ' + status + (message ? ': ' + message : '') + ' for the next devices.', errorsOf(body), loadMore);
      return;
    }
    showError($('devices-error'), null);
    addDevices(body);
  }

  function setBusy(busy) {
    $('devices').setAttribute('aria-busy', busy ? 'true' : 'false');
    if (busy) $('status').textContent = 'Loading…';
    else if ($('status').textContent === 'Loading…') $('status').textContent = '';
  }

  // True when the answer is an activity to show; otherwise says why not.
  function takeAnswer(answer, retry) {
    const { status, message, body } = answer;
    if (status === 401) {
      forgetKey('The gateway did not accept this key (' + message + '). Paste a valid API key.', errorsOf(body));
      return false;
    }
    if (status === 403) {
      forgetKey(
        'Access denied: this key may not read activities (it needs live_activity.read), ' +
        'or may not be used from this address.', errorsOf(body));
      return false;
    }
    if (status === 400) {
      // An app of another workspace, an unknown one, or an ID the gateway does not take.
      clearActivity();
      showSearch('The gateway refused this search: ' + message, errorsOf(body));
      return false;
    }
    if (!answer.ok || !body || !Array.isArray(body.devices) || !body.counts) {
      showError($('page-error'),
        'The gateway answered ' + status + (message ? ': ' + message : '') + '.', errorsOf(body), retry);
      return false;
    }
    return true;
  }

  // ---- Rendering: the activity ----

  function count(value) {
    return Number.isInteger(value) ? value : 0;
  }

  // Warn-mode mismatches, newest first, one per hour at most: updates the phone showed nothing for.
  function mismatchList(mismatches) {
    if (mismatches.length === 0) return [element('span', { className: 'muted', text: 'none' })];
    return [element('ul', { className: 'mismatches' }, mismatches.map((mismatch) =>
      element('li', { attributes: { 'data-mismatch': '' } }, [
        timeOrNone(mismatch.hour), ' ', element('span', { text: String(mismatch.message) }),
      ])))];
  }

  // The app's hourly budget of priority-10 updates per activity, or none.
  function budgetText(budget) {
    if (!budget || !Number.isInteger(budget.per_hour)) {
      return [element('span', { className: 'muted', text: 'none: every update goes at the priority it asks for' })];
    }
    const frequent = Number.isInteger(budget.frequent_per_hour)
      ? ', ' + budget.frequent_per_hour + ' on devices that allow frequent updates' : '';
    return [element('span', { text: budget.per_hour + ' an hour' + frequent })];
  }

  // Each clock hour's priority-10 updates against the budget, newest first, with those lowered to 5
  // and APNs's 429s.
  function priorityHourList(hours, budget) {
    if (hours.length === 0) return [element('span', { className: 'muted', text: 'none counted in the last day' })];
    const limit = budget && Number.isInteger(budget.per_hour) ? ' of ' + budget.per_hour : '';
    return [element('ul', { className: 'mismatches' }, hours.map((hour) =>
      element('li', { attributes: { 'data-priority-hour': '' } }, [
        timeOrNone(hour.hour), ' ',
        element('span', {
          text: count(hour.priority_10) + limit + ' at priority 10, ' + count(hour.lowered) + ' lowered to 5'
            + (count(hour.throttled) > 0 ? ', ' + count(hour.throttled) + ' throttled by APNs (429)' : ''),
        }),
      ])))];
  }

  function renderActivity(activity) {
    const activityID = String(activity.activity_id);
    $('activity-id').textContent = activityID;
    document.title = 'Activity ' + (activityID.length > 40 ? activityID.slice(0, 40) + '…' : activityID) + ' · LiveGate';
    const channel = activity.channel;
    const fields = {
      app_id: [textOrNone(activity.app_id)],
      channel: channel && channel.channel_id
        ? [
          element('span', { className: 'mono', text: channel.channel_id }), ' ',
          element('span', {
            className: 'status-label ' + (CHANNEL_STATES.includes(channel.state) ? 'channel-' + channel.state : 'status-unknown'),
            text: channel.state,
            attributes: { 'data-channel-state': String(channel.state) },
          }),
        ]
        : [element('span', { className: 'muted', text: 'none: updates go to each device by its token' })],
      attributes_types: Array.isArray(activity.attributes_types) && activity.attributes_types.length > 0
        ? [element('span', { className: 'mono', text: activity.attributes_types.join(', ') })]
        : [element('span', { className: 'muted', text: 'none reported: updates are not checked against a type' })],
      payload_mismatches: mismatchList(Array.isArray(activity.payload_mismatches) ? activity.payload_mismatches : []),
      priority_budget: budgetText(activity.priority_budget),
      priority_hours: priorityHourList(
        Array.isArray(activity.priority_hours) ? activity.priority_hours : [], activity.priority_budget),
    };
    for (const cell of $('activity-fields').querySelectorAll('dd[data-field]')) {
      cell.replaceChildren(...(fields[cell.dataset.field] || [none()]));
    }
    const counts = activity.counts || {};
    for (const name of COUNTS) {
      document.querySelector('#activity-counts [data-count="' + name + '"]').textContent = String(count(counts[name]));
    }
    state.totalDevices = count(counts.devices);
    renderDispatches(Array.isArray(activity.dispatches) ? activity.dispatches : []);
  }

  // ---- Rendering: the devices ----

  function timeOrNone(iso) {
    return iso ? timeElement(iso, formats.row) : none();
  }

  function lastPush(push) {
    if (!push) return [none()];
    const status = push.apns_status;
    const answer = element('span', {
      className: 'apns-status ' + (status === 200 ? 'apns-ok' : 'apns-refused'),
      text: status,
      title: 'APNs answered ' + status,
    });
    const id = String(push.dispatch_id);
    const at = timeElement(push.at, formats.row);
    const when = isUUID(id)
      ? element('a', { title: 'Dispatch ' + id, attributes: { href: 'dispatch?id=' + encodeURIComponent(id.toLowerCase()) } }, [at])
      : at;
    return [answer, ' ', when];
  }

  function deviceState(device) {
    if (!device.state) return [element('span', { className: 'muted', text: 'not reported' })];
    const label = element('span', {
      className: 'status-label ' + (STATES.includes(device.state) ? 'state-' + device.state : 'status-unknown'),
      text: device.state,
      attributes: { 'data-state': String(device.state) },
    });
    return device.state_reported_at ? [label, ' ', timeElement(device.state_reported_at, formats.row)] : [label];
  }

  // Whether the device's user allows the app more frequent updates, as the device last reported.
  function frequentPushes(device) {
    const enabled = device.frequent_pushes_enabled;
    if (enabled !== true && enabled !== false) return [element('span', { className: 'muted', text: 'not reported' })];
    return [element('span', {
      className: enabled ? 'member' : 'muted',
      text: enabled ? 'allowed' : 'not allowed',
      attributes: { 'data-frequent-pushes': String(enabled) },
    })];
  }

  function deviceRow(device) {
    const cell = (field, options, children) =>
      element('td', Object.assign({}, options, { attributes: { 'data-field': field } }), children);
    return element('tr', { attributes: { 'data-device-id': String(device.device_id) } }, [
      cell('device_id', { className: 'mono clip', title: String(device.device_id), text: device.device_id }),
      cell('external_id', { className: 'clip', title: device.external_id ? String(device.external_id) : '' },
        [textOrNone(device.external_id)]),
      cell('token', { className: 'mono' }, [device.token ? element('span', { text: '…' + device.token }) : none()]),
      cell('registered_at', {}, [timeOrNone(device.registered_at)]),
      cell('rotated_at', {}, [timeOrNone(device.rotated_at)]),
      cell('last_push', {}, lastPush(device.last_push)),
      cell('state', {}, deviceState(device)),
      cell('channel_member', { title: device.channel_id ? 'Follows channel ' + device.channel_id : '' }, [
        element('span', { className: device.channel_member ? 'member' : 'muted', text: device.channel_member ? 'yes' : 'no' }),
      ]),
      cell('frequent_pushes_enabled', {}, frequentPushes(device)),
    ]);
  }

  // Adds the answer's devices to those shown, and where the next page starts.
  function addDevices(page) {
    const devices = Array.isArray(page.devices) ? page.devices : [];
    state.devices = state.devices.concat(devices);
    state.nextCursor = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    const tbody = $('devices').tBodies[0];
    if (state.devices.length === 0) {
      tbody.replaceChildren(element('tr', { className: 'empty' }, [element('td', {
        text: 'No devices: nothing is known of this activity in this app. It is known once a device registers ' +
          'an update token under it or reports it.',
        attributes: { colspan: '9' },
      })]));
    } else if (state.devices.length === devices.length) {
      tbody.replaceChildren(...devices.map(deviceRow));
    } else {
      tbody.append(...devices.map(deviceRow));
    }
    $('more-devices').hidden = state.nextCursor === null;
    $('more-devices').disabled = false;
    const shown = state.devices.length;
    $('status').textContent = shown === 0 ? '' :
      shown + ' of ' + Math.max(shown, state.totalDevices) + (state.totalDevices === 1 ? ' device' : ' devices') + ' shown';
  }

  // ---- Rendering: the dispatches ----

  function svg(tag, attributes, children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    for (const child of children || []) node.append(child);
    return node;
  }

  function svgText(text, attributes) {
    const node = svg('text', attributes);
    node.textContent = String(text);
    return node;
  }

  function acceptedTime(dispatch) {
    const time = parseTime(dispatch.accepted_at).getTime();
    return isNaN(time) ? 0 : time;
  }

  function dispatchHref(id) {
    return 'dispatch?id=' + encodeURIComponent(id.toLowerCase());
  }

  function renderDispatches(dispatches) {
    const oldestFirst = dispatches.slice().sort((a, b) => acceptedTime(a) - acceptedTime(b));
    renderTimeline(oldestFirst);
    const rows = oldestFirst.slice().reverse().map(dispatchRow);
    if (rows.length === 0) {
      rows.push(element('tr', { className: 'empty' }, [element('td', { text: 'No dispatches.', attributes: { colspan: '8' } })]));
    }
    $('dispatches').tBodies[0].replaceChildren(...rows);
  }

  // Bars of the devices each dispatch reached (and, for a start, confirmed), oldest on the left, each a
  // link to its dispatch's page. SVG attributes place them: the page's policy allows no inline style.
  function renderTimeline(dispatches) {
    const box = $('timeline');
    $('timeline-empty').hidden = dispatches.length > 0;
    $('timeline-legend').hidden = dispatches.length === 0;
    if (dispatches.length === 0) {
      box.replaceChildren();
      return;
    }
    const { slot, bar, gap, top, plot, bottom, side } = CHART;
    const width = side * 2 + slot * dispatches.length;
    const height = top + plot + bottom;
    const base = top + plot;
    const sent = (dispatch) => count((dispatch.devices || {}).sent);
    const confirmed = (dispatch) => (dispatch.confirmation ? count(dispatch.confirmation.confirmed) : null);
    const largest = Math.max(1, ...dispatches.map(sent), ...dispatches.map((dispatch) => confirmed(dispatch) || 0));
    const barHeight = (value) => (value <= 0 ? 0 : Math.max(2, Math.round((value / largest) * plot)));

    const drawBar = (x, value, className) => {
      const h = barHeight(value);
      return [
        svg('rect', { x: x, y: base - h, width: bar, height: h, class: 'chart-bar ' + className, 'data-value': value }),
        svgText(value, { x: x + bar / 2, y: base - h - 5, class: 'chart-value' }),
      ];
    };

    const groups = dispatches.map((dispatch, index) => {
      const id = String(dispatch.dispatch_id);
      const left = side + index * slot;
      const middle = left + slot / 2;
      const reached = sent(dispatch);
      const started = confirmed(dispatch);
      const date = parseTime(dispatch.accepted_at);
      const valid = !isNaN(date.getTime());
      let summary = dispatch.event + ', ' + (STATUSES[dispatch.status] || dispatch.status).toLowerCase() + ': ' +
        reached + ' reached';
      if (started !== null) summary += ', ' + started + ' confirmed';
      summary += '; accepted ' + dispatch.accepted_at;
      const title = svg('title');
      title.textContent = summary;
      const parts = [title, svg('rect', { x: left + 2, y: 0, width: slot - 4, height: height, class: 'chart-hit' })];
      if (started === null) {
        parts.push(...drawBar(middle - bar / 2, reached, 'chart-bar-sent'));
      } else {
        parts.push(...drawBar(middle - gap / 2 - bar, reached, 'chart-bar-sent'));
        parts.push(...drawBar(middle + gap / 2, started, 'chart-bar-confirmed'));
      }
      parts.push(svgText(dispatch.event, { x: middle, y: base + 16, class: 'chart-event' }));
      parts.push(svgText(valid ? clock.format(date) : dispatch.accepted_at, { x: middle, y: base + 31, class: 'chart-time' }));
      if (valid) parts.push(svgText(day.format(date), { x: middle, y: base + 45, class: 'chart-time' }));
      const attributes = { class: 'chart-dispatch', 'data-dispatch-id': id, 'data-event': String(dispatch.event) };
      if (isUUID(id)) attributes.href = dispatchHref(id);
      return svg(isUUID(id) ? 'a' : 'g', attributes, parts);
    });
    const chart = svg('svg', {
      class: 'chart', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'group',
      'aria-label': 'Devices each dispatch reached, oldest on the left',
    }, [svg('line', { x1: side, y1: base + 0.5, x2: width - side, y2: base + 0.5, class: 'chart-axis' }), ...groups]);
    box.replaceChildren(chart);
  }

  function dispatchRow(dispatch) {
    const id = String(dispatch.dispatch_id);
    const devices = dispatch.devices || {};
    const known = STATUSES[dispatch.status];
    const unfinished = UNFINISHED.includes(dispatch.status);
    const confirmation = dispatch.confirmation;
    return element('tr', { attributes: { 'data-dispatch-id': id } }, [
      element('td', {}, [dispatchLink(id, 'mono')]),
      element('td', {}, [element('span', {
        className: 'status-label ' + (known ? 'status-' + dispatch.status : 'status-unknown'),
        text: known || dispatch.status,
        attributes: { 'data-status': String(dispatch.status) },
      })]),
      element('td', { text: dispatch.event }),
      element('td', {}, [timeOrNone(dispatch.accepted_at)]),
      element('td', {}, [dispatch.completed_at
        ? timeElement(dispatch.completed_at, formats.row)
        : element('span', { className: 'muted', text: unfinished ? 'not yet' : '—' })]),
      element('td', { className: 'number', text: count(devices.sent) }),
      element('td', { className: 'number', text: count(devices.failed) }),
      element('td', {
        className: 'number',
        title: confirmation ? confirmationNote(confirmation) : '',
      }, [confirmation ? element('span', { text: count(confirmation.confirmed) }) : none()]),
    ]);
  }

  function confirmationNote(confirmation) {
    let note = count(confirmation.confirmed) + ' of ' + count(confirmation.sent) + ' confirmed';
    if (confirmation.median_seconds_to_confirm !== null && confirmation.median_seconds_to_confirm !== undefined) {
      note += ', in ' + confirmation.median_seconds_to_confirm + ' s (median)';
    }
    return note;
  }

  // ---- Searching ----

  function search() {
    const appID = $('search-app-id').value.trim();
    const activityID = $('search-activity-id').value.trim();
    const problems = [];
    if (!appID) problems.push('app_id is required');
    if (!activityID) problems.push('activity_id is required');
    if (problems.length > 0) {
      showError($('search-error'), 'Check the search:', problems);
      return;
    }
    showError($('search-error'), null);
    const address = activityHref(appID, activityID);
    // A new address for a new search: Back returns to the previous activity.
    if (appID !== state.appID || activityID !== state.activityID) window.history.pushState(null, '', address);
    choose(appID, activityID);
  }

  // Shows another activity: nothing of the last one stays on the page meanwhile.
  function choose(appID, activityID) {
    state.appID = appID;
    state.activityID = activityID;
    state.request += 1;
    clearActivity();
    $('activity-section').hidden = true; // until there is an activity to show
    load();
  }

  // ---- Wiring ----

  function start() {
    readAddress();
    showError($('page-error'), null);
    if (!storedKey()) {
      showKeyForm(null);
    } else if (!state.appID || !state.activityID) {
      clearActivity();
      const partial = state.appID || state.activityID;
      showSearch(partial ? 'The address names ' + (state.appID ? 'no activity_id' : 'no app_id') + '.' : null);
    } else {
      show('search');
      choose(state.appID, state.activityID);
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    onKeyEntered(start);
    $('search-form').addEventListener('submit', (event) => {
      event.preventDefault();
      search();
    });
    $('forget-key').addEventListener('click', () => forgetKey(null));
    $('refresh').addEventListener('click', () => load());
    $('more-devices').addEventListener('click', () => loadMore());
    // Back and Forward show the activity their address names.
    window.addEventListener('popstate', () => start());
    start();
  });
})();
