import { createHash, randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds an import job's lease: `<incarnation>.<pid>@<host>` in `import_jobs.lease_owner`
 * (at most 64 characters), so that an instance starting on the same host can tell a job of a
 * process that is gone (killed with SIGKILL, crashed) from one of a live process, and fail it at
 * once instead of waiting for its lease. The incarnation (random) tells a restarted process
 * that got its predecessor's pid (pid 1 in a container) from that predecessor. The host is the
 * host name plus, on Linux, the process-id namespace (two containers sharing the host's name
 * through host networking still have pid namespaces of their own); longer than 32 characters,
 * it is recorded as the first 32 hex digits of its SHA-256.
 */
export interface LeaseOwner {
  incarnation: string;
  pid: number;
  host: string;
}

const FORMAT = /^([0-9a-f]{16})\.(\d{1,10})@(.{1,32})$/;

/** This process's pid namespace (`pid:[4026531836]` on Linux), or '' where there is none. */
function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/** The host part as recorded (the name itself, or its hash when longer than 32 characters). */
export function hostPart(
  name = `${hostname()}${pidNamespace() ? `/${pidNamespace()}` : ''}`,
): string {
  return name.length <= 32 ? name : createHash('sha256').update(name).digest('hex').slice(0, 32);
}

/** The lease owner of this process. */
export function newLeaseOwner(pid = process.pid, host = hostPart()): string {
  return `${randomBytes(8).toString('hex')}.${pid}@${host}`;
}

/** The parts of a recorded lease owner; null for another shape (an older kb's bare UUID). */
export function parseLeaseOwner(owner: string | null): LeaseOwner | null {
  const match = owner ? FORMAT.exec(owner) : null;
  return match ? { incarnation: match[1], pid: Number(match[2]), host: match[3] } : null;
}

/** Whether a process with this pid exists on this host (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the lease `owner` belongs to a process of this host that is no longer alive: its pid
 * is gone, or it is this process's pid under another incarnation (a predecessor). False for
 * another host, a live process, this very process, or an owner of unknown shape: there the
 * lease stays the guard.
 */
export function ownerIsGoneHere(
  owner: string | null,
  self: string,
  alive: (pid: number) => boolean = processAlive,
): boolean {
  const lease = parseLeaseOwner(owner);
  const me = parseLeaseOwner(self);
  if (!lease || !me || owner === self || lease.host !== me.host) return false;
  if (lease.pid === me.pid) return true;
  return !alive(lease.pid);
}
