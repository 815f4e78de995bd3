/**
 * The token of an invitation or reset link: `#token=<token>`. It travels in the fragment,
 * which the browser never sends to a server (no access log keeps it).
 */
export function linkToken(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token') ?? '';
  return /^[A-Za-z0-9_-]{1,128}$/.test(token) ? token : '';
}
