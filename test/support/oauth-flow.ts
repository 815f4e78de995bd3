import { createHash, randomBytes } from 'node:crypto';

/** A browser's cookie jar for fetch: enough for kb's and the provider's cookies on one host. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(initial?: string) {
    if (initial) this.add(initial);
  }

  add(cookie: string): void {
    const [pair] = cookie.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie))
      this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  take(res: Response): void {
    for (const cookie of res.headers.getSetCookie()) this.add(cookie);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A GET as a browser navigates: cookies sent and kept, the redirect not followed. */
export async function navigate(jar: CookieJar, url: string): Promise<Response> {
  const res = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: jar.header(), accept: 'text/html' },
  });
  jar.take(res);
  return res;
}

/** What the console does on the consent screen: JSON calls with the browser's cookies. */
export async function consoleCall(
  jar: CookieJar,
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: jar.header(),
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  jar.take(res);
  return res;
}

export async function form(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
