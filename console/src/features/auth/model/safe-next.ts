/**
 * Where to go after signing in: a path of this site, or the home page. `next` comes from the
 * address bar, so anyone can write it: a value that leaves the site (`//evil.example`,
 * `https://evil.example`, `javascript:…`), that a browser reads as leaving it (`/\evil.example`:
 * a backslash is a slash in http URLs), or that decodes to one of those (`%2F%2Fevil.example`,
 * `/%5Cevil.example`) lands on the home page, and so does anything with control characters.
 */
export function safeNext(next: string | null, origin: string): string {
  if (!next) return '/';
  let probe = next;
  // Each decoded form of the value must still be a plain path (percent-encoding is undone by
  // the router and by servers, so an encoded `//` or `\` is judged as what it becomes).
  for (let round = 0; round < 4; round++) {
    if (!/^\/(?![/\\])/.test(probe) || probe.includes('\\') || hasControl(probe)) return '/';
    let decoded: string;
    try {
      decoded = decodeURIComponent(probe);
    } catch {
      return '/';
    }
    if (decoded === probe) break;
    probe = decoded;
  }
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** C0 controls and DEL: browsers strip or rewrite them in URLs, so they never reach a path. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
