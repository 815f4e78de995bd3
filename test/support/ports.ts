import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports for the servers tests start themselves (kb instances, nginx, private mariadbd), chosen
 * the way a real deployment's fixed ports are: outside the kernel's ephemeral range.
 */

/** Whether nothing listens on `port` (on 127.0.0.1 nor on every address). */
function portFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The kernel's ephemeral port range (`listen(0)` and outgoing connections draw from it). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux: the IANA dynamic range
  }
  return [49152, 65535];
}

/** Whether the kernel may hand `port` to any process's `listen(0)` (see freePort). */
export function inEphemeralRange(port: number): boolean {
  const [low, high] = ephemeralRange();
  return port >= low && port <= high;
}

const taken = new Set<number>();

/**
 * A free TCP port OUTSIDE the kernel's ephemeral range, never the same twice in one process.
 * A port from the ephemeral range (a `listen(0)` probe) can be handed by the kernel to any other
 * process's `listen(0)` or outgoing connection between the probe and the server's bind — and two
 * probes run one after the other can even return the same port: a server then fails to bind
 * while another answers in its place (seen as a replica replicating from itself, and as nginx
 * sending a deployment's requests to another test's kb). Ports outside the range are only ever
 * taken by servers that ask for them by number, which this check sees.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  // Above the well-known and common service ports, and outside the ephemeral range.
  const ranges = [
    [20_000, low - 1],
    [high + 1, 65_535],
  ].filter(([from, to]) => to - from >= 1000);
  if (ranges.length === 0) throw new Error(`no ports outside the ephemeral range ${low}-${high}`);
  const [from, to] = ranges.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (taken.has(port)) continue;
    if ((await portFree(port, '127.0.0.1')) && (await portFree(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${from} and ${to}`);
}
