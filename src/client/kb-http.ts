/**
 * The CLI's HTTP side: fetch with the bearer token, problem documents turned into sentences.
 */

export interface ProblemDocument {
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  errors?: { field: string; code: string; message: string }[];
  moreErrors?: number;
}

/** A refusal from kb (or a failure to reach it), already in words. */
export class KbError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly problem?: ProblemDocument,
  ) {
    super(message);
  }
}

/** A problem document in words: `title (status, code): detail`, then one line per field error. */
export function describeProblem(problem: ProblemDocument, status: number): string {
  const lines = [
    `${problem.title ?? 'Error'} (${status}${problem.code ? `, ${problem.code}` : ''}): ${problem.detail ?? ''}`.trim(),
  ];
  for (const error of problem.errors ?? []) lines.push(`  - ${error.field}: ${error.message}`);
  if (problem.moreErrors) lines.push(`  … and ${problem.moreErrors} more`);
  return lines.join('\n');
}

export class KbHttp {
  readonly base: string;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  /** fetch() against kb with the token; a non-2xx answer becomes a KbError in words. */
  async request(
    path: string,
    init: RequestInit & { duplex?: 'half' } = {},
    accept = 'application/json',
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        ...init,
        headers: {
          Accept: accept,
          Authorization: `Bearer ${this.token}`,
          ...(init.headers as Record<string, string> | undefined),
        },
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new KbError(`cannot reach kb at ${this.base}: ${cause ?? (error as Error).message}`);
    }
    if (response.ok) return response;
    const text = await response.text();
    let problem: ProblemDocument | undefined;
    try {
      problem = JSON.parse(text) as ProblemDocument;
    } catch {
      problem = undefined;
    }
    if (problem && typeof problem === 'object' && (problem.title || problem.detail))
      throw new KbError(describeProblem(problem, response.status), response.status, problem);
    throw new KbError(
      `kb answered ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`,
      response.status,
    );
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    return (await (await this.request(path, init)).json()) as T;
  }
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** The events of a text/event-stream answer, as they arrive. */
export async function* serverSentEvents(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      yield { event, data: JSON.parse(data.join('\n')) as unknown };
    }
  }
}
