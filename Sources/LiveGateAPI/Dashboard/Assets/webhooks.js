// LiveGate dashboard: the workspace's webhook endpoints (webhooks). Plain JavaScript, no build step, no
// dependencies; common.js (loaded first) keeps the key and puts the gateway's data in the page as text.
//
// The page reads GET /webhooks and shows each endpoint as the gateway reports it (lag, failures, the
// last error and delivery are the gateway's figures, never worked out here), and reads it again every
// few seconds while the tab is shown. A paused endpoint has a Resume button: POST /webhooks/{id}/resume.
(function () {
  'use strict';

  const {
    $, element, none, textOrNone, isUUID, formats, timeElement, storedKey, onKeyEntered, dropKey, showError, errorsOf,
    callAPI, apiURL, unreachable,
  } = window.LiveGateDashboard;

  // Lag and failures change by the second while an endpoint is behind or failing; endpoints are few.
  const REFRESH_MS = 5000;
  const STATES = {
    paused: ['Paused', 'status-failed', 'Nothing is sent until it is resumed; its events wait.'],
    failing: ['Failing', 'status-pending', 'Its last batch failed; it is tried again with backoff.'],
    ok: ['Sending', 'status-done', 'Its last batch was delivered, or none has been due yet.'],
  };

  const state = {
    request: 0,
    timer: null,
  };

  // ---- Sections ----

  function show(section) {
    $('key-section').hidden = section !== 'key';
    $('webhooks-section').hidden = section !== 'webhooks';
    $('key-status').hidden = section === 'key' || !storedKey();
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
    $('webhooks').tBodies[0].replaceChildren();
    $('status').textContent = '';
    $('resume-note').textContent = '';
    showError($('resume-error'), null);
    showError($('page-error'), null);
    showKeyForm(message, details);
  }

  // ---- Refreshing ----

  function stopRefreshing() {
    window.clearTimeout(state.timer);
    state.timer = null;
    $('webhooks-section').dataset.refreshing = 'false';
  }

  function scheduleRefresh() {
    stopRefreshing();
    $('refresh-note').textContent = 'Refreshing every ' + REFRESH_MS / 1000 + ' s.';
    $('webhooks-section').dataset.refreshing = 'true';
    state.timer = window.setTimeout(() => {
      // A hidden tab asks nothing; it catches up when it is shown again (visibilitychange).
      if (document.hidden) scheduleRefresh();
      else load();
    }, REFRESH_MS);
  }

  // ---- Loading ----

  async function load() {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    stopRefreshing();
    const request = ++state.request;
    $('webhooks').setAttribute('aria-busy', 'true');
    let answer;
    try {
      answer = await callAPI(apiURL('webhooks'), key);
    } catch (error) {
      if (request !== state.request) return;
      $('webhooks').setAttribute('aria-busy', 'false');
      showError($('page-error'), unreachable(error), [], load);
      scheduleRefresh(); // a gateway back soon is noticed without a click
      return;
    }
    if (request !== state.request) return; // a newer request was made meanwhile
    $('webhooks').setAttribute('aria-busy', 'false');
    if (!takeAnswer(answer)) return;
    scheduleRefresh();
  }

  // Shows the endpoints; false when the key must change (the refreshing stops).
  function takeAnswer(answer) {
    const { status, message, body } = answer;
    if (status === 401) {
      forgetKey('The gateway did not accept this key (' + message + '). Paste a valid API key.', errorsOf(body));
      return false;
    }
    if (status === 403) {
      forgetKey('Access denied: this key may not manage webhooks (it needs webhooks.manage), ' +
        'or may not be used from this address.', errorsOf(body));
      return false;
    }
    if (!answer.ok || !body || !Array.isArray(body.webhooks)) {
      showError($('page-error'),
        'The gateway answered ' + status + (message ? ': ' + message : '') + '.', errorsOf(body), load);
      return true; // asked again at the next refresh
    }
    showError($('page-error'), null);
    show('webhooks');
    render(body.webhooks);
    return true;
  }

  // ---- Rendering ----

  function stateOf(endpoint) {
    if (endpoint.paused) return 'paused';
    return Number(endpoint.failures) > 0 ? 'failing' : 'ok';
  }

  // The gateway's lag in seconds, for a person: "0 s", "42 s", "3 min 5 s", "2 h 10 min", "1 d 3 h".
  function duration(seconds) {
    const total = Math.max(0, Math.floor(Number(seconds) || 0));
    const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]];
    const parts = [];
    let left = total;
    for (const [name, size] of units) {
      const count = Math.floor(left / size);
      left -= count * size;
      if (count > 0 || (name === 's' && parts.length === 0)) parts.push(count + ' ' + name);
      if (parts.length === 2) break;
    }
    return parts.join(' ');
  }

  function timeOrNone(iso, otherwise) {
    if (!iso) return otherwise ? element('span', { className: 'muted', text: otherwise }) : none();
    return timeElement(String(iso), formats.row);
  }

  function stateCell(endpoint) {
    const name = stateOf(endpoint);
    const [label, css, hint] = STATES[name];
    const children = [element('span', { className: 'status-label ' + css, text: label, title: hint, attributes: { 'data-state': name } })];
    if (name === 'paused') {
      if (endpoint.paused_at) {
        children.push(element('div', { className: 'muted small' }, [element('span', { text: 'since ' }), timeOrNone(endpoint.paused_at)]));
      }
      children.push(...resumeButton(endpoint));
    } else if (name === 'failing' && endpoint.retry_at) {
      children.push(element('div', { className: 'muted small' }, [element('span', { text: 'next try ' }), timeOrNone(endpoint.retry_at)]));
    }
    return children;
  }

  function endpointCell(endpoint) {
    return [
      element('div', { className: 'mono url', text: endpoint.url, title: endpoint.url }),
      element('div', { className: 'mono muted small', text: endpoint.webhook_id }),
    ];
  }

  // Beside the state it changes: only a paused endpoint has one.
  function resumeButton(endpoint) {
    if (!isUUID(String(endpoint.webhook_id))) return [];
    const button = element('button', {
      className: 'secondary resume',
      text: 'Resume',
      attributes: { type: 'button', 'data-resume': String(endpoint.webhook_id) },
    });
    button.addEventListener('click', () => resume(endpoint, button));
    return [button];
  }

  // When it last took a batch, and how many events it has taken in all.
  function deliveryCell(endpoint) {
    const count = Number(endpoint.delivered_events) || 0;
    return [
      timeOrNone(endpoint.last_delivered_at, 'never'),
      element('div', {
        className: 'muted small',
        text: count + (count === 1 ? ' event' : ' events') + ' delivered',
        attributes: { 'data-delivered': String(endpoint.delivered_events) },
      }),
    ];
  }

  function row(endpoint) {
    const events = Array.isArray(endpoint.events) ? endpoint.events.map(String) : [];
    const cells = {
      endpoint: endpointCell(endpoint),
      state: stateCell(endpoint),
      events: [element('span', { text: events.join(', ') })],
      app_id: endpoint.app_id
        ? [element('span', { className: 'mono', text: endpoint.app_id, title: String(endpoint.app_id) })]
        : [element('span', { className: 'muted', text: 'every app' })],
      lag: [element('span', { text: duration(endpoint.lag_seconds), title: String(endpoint.lag_seconds) + ' s' })],
      failures: [element('span', { text: String(endpoint.failures) })],
      failing_since: [timeOrNone(endpoint.failing_since)],
      last_delivered_at: deliveryCell(endpoint),
      last_error: [textOrNone(endpoint.last_error)],
    };
    const numbers = ['lag', 'failures'];
    return element('tr', { attributes: { 'data-webhook-id': String(endpoint.webhook_id), 'data-state': stateOf(endpoint) } },
      Object.entries(cells).map(([name, children]) => element('td', {
        className: numbers.includes(name) ? 'number' : name === 'last_error' ? 'message' : undefined,
        attributes: { 'data-field': name },
      }, children)));
  }

  function render(endpoints) {
    const rows = endpoints.map(row);
    if (rows.length === 0) {
      rows.push(element('tr', { className: 'empty' }, [element('td', {
        text: 'No webhook endpoints in this workspace. Make one with POST /webhooks.',
        attributes: { colspan: '9' },
      })]));
    }
    $('webhooks').tBodies[0].replaceChildren(...rows);
    const paused = endpoints.filter((endpoint) => endpoint.paused).length;
    const count = endpoints.length;
    $('status').textContent = count === 0 ? '' :
      count + (count === 1 ? ' endpoint' : ' endpoints') + (paused > 0 ? ', ' + paused + ' paused' : '');
  }

  // ---- Resuming ----

  async function resume(endpoint, button) {
    const key = storedKey();
    if (!key) {
      showKeyForm(null);
      return;
    }
    button.disabled = true;
    let answer;
    try {
      answer = await callAPI(apiURL('webhooks/' + encodeURIComponent(endpoint.webhook_id) + '/resume'), key, 'POST');
    } catch (error) {
      button.disabled = false;
      showError($('resume-error'), unreachable(error));
      return;
    }
    const { status, message, body } = answer;
    if (status === 200 && body && body.webhook_id === endpoint.webhook_id) {
      showError($('resume-error'), null);
      $('resume-note').textContent = 'Resumed ' + body.url + ': its waiting events are sent again.';
      load();
      return;
    }
    button.disabled = false;
    if (status === 401 || status === 403) {
      takeAnswer(answer);
      return;
    }
    if (status === 404) {
      showError($('resume-error'), 'This endpoint no longer exists: it was deleted meanwhile.', errorsOf(body));
      load();
      return;
    }
    showError($('resume-error'), 'The gateway answered ' + status + (message ? ': ' + message : '') + '.', errorsOf(body));
  }

  // ---- Wiring ----

  document.addEventListener('DOMContentLoaded', () => {
    onKeyEntered(() => {
      show('webhooks');
      $('webhooks-section').hidden = true; // until there is an answer to show
      load();
    });
    $('forget-key').addEventListener('click', () => forgetKey(null));
    $('refresh').addEventListener('click', () => load());
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && state.timer !== null) load();
    });
    if (!storedKey()) {
      showKeyForm(null);
    } else {
      show('webhooks');
      $('webhooks-section').hidden = true; // until there is an answer to show
      load();
    }
  });
})();
