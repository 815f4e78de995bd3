const KIB = 1024;
const MIB = 1024 * 1024;

/** To the nearest tenth, no decimal when it is 0: 3.1, 2, 600. */
function amount(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A size for people: "512 bytes", "600 KiB", "3.1 MiB" (binary units, as limits are set). */
export function describeBytes(bytes: number): string {
  if (bytes < KIB) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < MIB) return `${amount(bytes / KIB)} KiB`;
  return `${amount(bytes / MIB)} MiB`;
}

/**
 * "This page holds 3.1 MiB; a page may hold at most 2 MiB." A size just over its limit that
 * rounds to the limit's own words is said "more than 2 MiB".
 */
export function overLimitSentence(thing: string, size: number, limit: number): string {
  const held = describeBytes(size);
  const most = describeBytes(limit);
  const holds = held === most ? `more than ${most}` : held;
  return `This ${thing} holds ${holds}; a ${thing} may hold at most ${most}.`;
}
