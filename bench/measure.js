'use strict';
// One autocannon run with our own percentiles: autocannon's histogram has no p95, so every
// response time is kept and sorted (a 10 s run at a few thousand req/s is a few MB).
const autocannon = require('autocannon');

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

function runOnce(options, record) {
  return new Promise((resolve, reject) => {
    const times = [];
    const statuses = {};
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve({ result, times, statuses }),
    );
    if (record) {
      instance.on('response', (_client, status, _bytes, responseTime) => {
        times.push(responseTime);
        statuses[status] = (statuses[status] || 0) + 1;
      });
    }
  });
}

/**
 * Measures `requests` against `url` for `duration` seconds at `connections`, after a short
 * unrecorded warm-up (JIT, caches, connection setup).
 * Returns {requestsPerSecond, p50, p95, p97_5, p99, max, total, statuses, errors, non2xx}.
 */
async function measure({
  url,
  requests,
  headers = {},
  connections = 50,
  duration = 10,
  warmup = 2,
}) {
  const base = { url, connections, headers, requests };
  if (warmup > 0) await runOnce({ ...base, duration: warmup }, false);
  await eventLoopDelayP99(url); // starts the server's event-loop window
  const { result, times, statuses } = await runOnce({ ...base, duration }, true);
  const loopP99 = await eventLoopDelayP99(url);
  const sorted = Float64Array.from(times).sort();
  return {
    requestsPerSecond: times.length / result.duration,
    total: times.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p97_5: percentile(sorted, 97.5),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    statuses,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: result.throughput.average,
    loopP99,
  };
}

/**
 * The server's event-loop delay p99 (ms) since the previous call, from kb's /metrics (open to
 * this machine); null for a server without it (the ceiling apps).
 */
async function eventLoopDelayP99(url) {
  try {
    const res = await fetch(`${url}/metrics`);
    if (!res.ok) return null;
    const match = /^kb_event_loop_delay_seconds\{quantile="0\.99"\} (\S+)$/m.exec(await res.text());
    return match ? Number(match[1]) * 1000 : null;
  } catch {
    return null;
  }
}

module.exports = { measure, percentile, eventLoopDelayP99 };
