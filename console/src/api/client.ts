import createClient, { type Middleware } from 'openapi-fetch';
import { ApiProblem } from './problem';
import type { paths } from './kb-api';

/** Parameters that hold a slug (or draft key) keep their slashes: each segment is encoded. */
const MULTI_SEGMENT = new Set(['slug', 'key']);

function serializePath(pathname: string, params: Record<string, unknown>): string {
  return pathname.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = String(params[name] ?? '');
    return MULTI_SEGMENT.has(name)
      ? value.split('/').map(encodeURIComponent).join('/')
      : encodeURIComponent(value);
  });
}

let sessionLost: (() => void) | null = null;

/** Sign-in's own steps answer 401 for a wrong password or code, not for a lost session. */
const SIGN_IN_STEPS = /^\/auth\/(login|2fa\/|passkey\/)/;

/** Called with every 401 outside sign-in: the session expired or was ended elsewhere. */
export function onSessionLost(handler: () => void): void {
  sessionLost = handler;
}

const watchSession: Middleware = {
  onResponse({ request, response }) {
    if (response.status === 401 && !SIGN_IN_STEPS.test(new URL(request.url).pathname))
      sessionLost?.();
  },
};

/** The one typed client for kb's API (session cookie, same origin). */
export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  pathSerializer: serializePath,
});
api.use(watchSession);

interface FetchResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * The body of a successful answer, typed by the generated schema; any other answer throws its
 * problem document as ApiProblem.
 */
export async function unwrap<D>(call: Promise<FetchResult<D>>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw await ApiProblem.fromResponse(response, error);
  return data as D;
}

/** A file answer (Markdown, ZIP, PDF) as a Blob with the server's file name. */
export async function unwrapFile(
  call: Promise<FetchResult<unknown>>,
  fallbackName: string,
): Promise<{ blob: Blob; filename: string }> {
  const { data, error, response } = await call;
  if (!response.ok) throw await ApiProblem.fromResponse(response, error);
  return { blob: data as Blob, filename: filenameOf(response) ?? fallbackName };
}

/** RFC 6266: `filename*=UTF-8''…` wins over the ASCII `filename="…"`. */
export function filenameOf(response: Response): string | null {
  const header = response.headers.get('Content-Disposition') ?? '';
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1]);
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain ? plain[1] : null;
}
