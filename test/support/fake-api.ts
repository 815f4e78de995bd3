/**
 * The network under a console component spec: `fetch` answered by `routes` ("METHOD /path" →
 * a handler given the request and its JSON body), every request kept in `requests`. A route
 * not listed answers 404 problem+json, as kb does, so a spec never passes on a call it did not
 * expect. Only the network is replaced: the component, its hooks and the API client run as in
 * the browser.
 */
export type Handler = (body: unknown, request: Request) => Response | Promise<Response>;

export interface FakeApi {
  requests: { method: string; path: string; body: unknown; headers: Headers }[];
  restore: () => void;
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    },
  });

type FetchHandler = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
/** Where test/support/component-environment.js's `fetch` sends each request. */
const scope = globalThis as { fetchHandler?: FetchHandler };

export function fakeApi(routes: Record<string, Handler>): FakeApi {
  const api: FakeApi = { requests: [], restore: () => delete scope.fetchHandler };
  scope.fetchHandler = async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(request.url).pathname;
    const text = await request.clone().text();
    const body = text ? JSON.parse(text) : undefined;
    api.requests.push({ method: request.method, path, body, headers: request.headers });
    const handler = routes[`${request.method} ${path}`];
    if (!handler) return json({ status: 404, code: 'not_found', detail: `No ${path}.` }, 404);
    return handler(body, request);
  };
  return api;
}
