/** The filters of the search query language (docs/search.md), as chips the screen shows. */
export interface QueryFilter {
  /** The text in the query (`tag:"on call"`). */
  text: string;
  name: string;
  value: string;
}

const FILTER = /(^|\s)(tag|owner|under|lifecycle|verified|lang|updated|is):("[^"]*"?|\S+)/gi;

/** The filters written in `q`, in order. */
export function filtersIn(q: string): QueryFilter[] {
  return [...q.matchAll(FILTER)].map((m) => ({
    text: `${m[2]}:${m[3]}`,
    name: m[2].toLowerCase(),
    value: m[3].replace(/^"|"$/g, ''),
  }));
}

/** `q` without one of its filters. */
export function withoutFilter(q: string, filter: QueryFilter): string {
  const at = q.indexOf(filter.text);
  if (at < 0) return q;
  return `${q.slice(0, at)}${q.slice(at + filter.text.length)}`.replace(/\s+/g, ' ').trim();
}

/** `q` with a filter added (its value quoted when it holds a space), unless it is there. */
export function withFilter(q: string, name: string, value: string): string {
  const text = `${name}:${/\s/.test(value) ? `"${value}"` : value}`;
  if (filtersIn(q).some((f) => f.text === text)) return q;
  return `${q.trim()} ${text}`.trim();
}
