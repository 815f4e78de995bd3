'use strict';
// One autocannon run with our own percentiles: autocannon's histogram has no p95, so every
// response time is kept and sorted (a 10 s run at a few thousand req/s is a few MB).
const http = require('node:http');
const autocannon = require('autocannon');

/** autocannon's request timeout (s): an answer slower than this is a timeout, not a time. */
const TIMEOUT_SECONDS = 10;
/** The class of a request entry that names none. */
const ALL = 'all';

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** Percentiles of response times (ms) over `seconds`. */
function latencyRow(times, seconds) {
  const sorted = Float64Array.from(times).sort();
  return {
    requestsPerSecond: times.length / seconds,
    total: times.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p97_5: percentile(sorted, 97.5),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}

/**
 * Wraps the request entries to follow every request from its build (just before it is sent) to
 * its answer, by class: an entry may tell its class in `context.kind` (bench/requests.js
 * `mix`). The entry's onResponse runs just before autocannon's `response` event of the same
 * answer, which is how a time finds its class. What is left when the run ends was never
 * answered: timeouts (older than the timeout; a socket error loses its request the same way),
 * and the requests still waiting, whose wait counts toward `max` (an answer slower than the run
 * is longer leaves no time otherwise).
 */
function track(requests) {
  const state = { last: ALL, inflight: new Map(), seq: 0 };
  const wrapped = requests.map((request) => ({
    ...request,
    setupRequest: (req, context) => {
      const built = request.setupRequest ? request.setupRequest(req, context) : req;
      if (built) {
        context.seq = ++state.seq;
        state.inflight.set(context.seq, { kind: context.kind ?? ALL, at: performance.now() });
      }
      return built;
    },
    onResponse: (status, body, context, headers) => {
      state.last = context.kind ?? ALL;
      state.inflight.delete(context.seq);
      request.onResponse?.(status, body, context, headers);
    },
  }));
  return { state, requests: wrapped };
}

/** The requests never answered when the run ended at `endedAt`, by class: {timeouts, longestWait}. */
function unanswered(state, endedAt) {
  const byKind = {};
  for (const { kind, at } of state.inflight.values()) {
    const entry = (byKind[kind] ??= { timeouts: 0, longestWait: 0 });
    const age = endedAt - at;
    if (age >= TIMEOUT_SECONDS * 1000) entry.timeouts += 1;
    else entry.longestWait = Math.max(entry.longestWait, age);
  }
  return byKind;
}

function runOnce(options, record, tracked) {
  return new Promise((resolve, reject) => {
    const times = [];
    const statuses = {};
    const byClass = {};
    const instance = autocannon(options, (error, result) =>
      error
        ? reject(error)
        : resolve({ result, times, statuses, byClass, endedAt: performance.now() }),
    );
    if (record) {
      instance.on('response', (_client, status, _bytes, responseTime) => {
        times.push(responseTime);
        statuses[status] = (statuses[status] || 0) + 1;
        const entry = (byClass[tracked.last] ??= { times: [], statuses: {} });
        entry.times.push(responseTime);
        entry.statuses[status] = (entry.statuses[status] || 0) + 1;
      });
    }
  });
}

/**
 * Measures `requests` against `url` for `duration` seconds at `connections`, after a short
 * unrecorded warm-up (JIT, caches, connection setup). `processes`: how many HTTP processes
 * serve `url` (KB_WORKERS), so the server's event-loop window is started in each.
 * Returns {requestsPerSecond, p50, p95, p97_5, p99, max, maxAnswered, total, statuses, errors
 * (socket errors), timeouts, non2xx, loopP99}, and with `byClass` (see track) `classes`: {kind:
 * {requestsPerSecond, p50, p95, p99, max, total, statuses, timeouts}}. `max` is the slowest
 * answer or the longest wait of a request still unanswered at the end, whichever is longer.
 */
async function measure({
  url,
  requests,
  headers = {},
  connections = 50,
  duration = 10,
  warmup = 2,
  processes = 1,
  byClass = false,
}) {
  const base = { url, connections, headers, requests, timeout: TIMEOUT_SECONDS };
  if (warmup > 0) await runOnce({ ...base, duration: warmup }, false);
  // No entries: autocannon's one request of `url`.
  const tracked = track(requests ?? [{}]);
  await startLoopWindow(url, processes);
  const run = await runOnce({ ...base, duration, requests: tracked.requests }, true, tracked.state);
  const loopP99 = await eventLoopDelayP99(url);
  const waiting = unanswered(tracked.state, run.endedAt);
  const longestWait = Math.max(0, ...Object.values(waiting).map((w) => w.longestWait));
  const all = latencyRow(run.times, run.result.duration);
  const row = {
    ...all,
    max: Math.max(all.max, longestWait),
    maxAnswered: all.max,
    statuses: run.statuses,
    errors: run.result.errors - run.result.timeouts,
    timeouts: run.result.timeouts,
    non2xx: run.result.non2xx,
    bytesPerSecond: run.result.throughput.average,
    loopP99,
  };
  if (byClass) {
    row.classes = {};
    const kinds = new Set([...Object.keys(run.byClass), ...Object.keys(waiting)]);
    for (const kind of kinds) {
      const answered = run.byClass[kind] ?? { times: [], statuses: {} };
      const times = latencyRow(answered.times, run.result.duration);
      row.classes[kind] = {
        ...times,
        max: Math.max(times.total ? times.max : 0, waiting[kind]?.longestWait ?? 0),
        statuses: answered.statuses,
        timeouts: waiting[kind]?.timeouts ?? 0,
      };
    }
  }
  return row;
}

/** GET /metrics on a connection of its own (so several calls reach each of several processes). */
function scrape(url) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/metrics`, { agent: false, timeout: 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part) => (text += part));
      res.on('end', () => resolve(res.statusCode === 200 ? text : null));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/**
 * Starts the server's event-loop window: each scrape of kb's /metrics starts a new one in the
 * process that answers it, and node:cluster hands new connections to the workers in turn, so
 * one scrape per process (twice over, to be safe) reaches every worker.
 */
async function startLoopWindow(url, processes) {
  for (let i = 0; i < (processes > 1 ? processes * 2 : 1); i++) await scrape(url);
}

/**
 * The server's event-loop delay p99 (ms) since the window started (the worst process's with
 * KB_WORKERS > 1), from kb's /metrics (open to this machine); null for a server without it
 * (the ceiling apps).
 */
async function eventLoopDelayP99(url) {
  const text = await scrape(url);
  const match = text && /^kb_event_loop_delay_seconds\{quantile="0\.99"\} (\S+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : null;
}

module.exports = { measure, percentile, latencyRow, eventLoopDelayP99, startLoopWindow };
