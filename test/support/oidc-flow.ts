/**
 * Drives the test provider's pages over HTTP as a browser would (its own cookie jar, redirects
 * followed by hand), for the API specs; the browser spec uses Chromium instead.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The `name` cookie's value among a response's Set-Cookie headers (supertest's array). */
export function cookieValue(
  setCookie: string[] | string | undefined,
  name: string,
): string | undefined {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  for (const line of lines) {
    const [pair] = line.split(';');
    if (pair.startsWith(`${name}=`)) return decodeURIComponent(pair.slice(name.length + 1));
  }
  return undefined;
}

/**
 * Signs in at the provider from its authorization URL: the login page (username, password),
 * then consent; answers the address the provider finally sends the browser to (kb's callback
 * with `code` and `state`, or with `error`).
 */
export async function signInAtIdp(
  authorizationUrl: string,
  username: string,
  password: string,
  jar = new CookieJar(),
): Promise<string> {
  const issuer = new URL(authorizationUrl).origin;
  let next: { url: string; form?: URLSearchParams } = { url: authorizationUrl };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: next.form?.toString(),
      redirect: 'manual',
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next.url);
      if (target.origin !== issuer) return target.toString();
      next = { url: target.toString() };
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) {
      throw new Error(`IdP answered ${response.status}: ${html.slice(0, 300)}`);
    }
    const form = html.includes('name="prompt" value="consent"')
      ? new URLSearchParams({ prompt: 'consent' })
      : new URLSearchParams({ username, password });
    next = { url: new URL(action.replace(/&amp;/g, '&'), issuer).toString(), form };
  }
  throw new Error('the IdP sign-in did not end');
}
