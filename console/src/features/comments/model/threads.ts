/** A thread: its first comment and the replies (API items, `CommentItem` in the console). */
export interface Thread<C extends { id: string; threadId: string }> {
  root: C;
  replies: C[];
}

/** The API lists each thread's first comment followed by its replies: grouped back. */
export function threadsOf<C extends { id: string; threadId: string }>(items: C[]): Thread<C>[] {
  const threads = new Map<string, Thread<C>>();
  for (const item of items) {
    if (item.id === item.threadId) threads.set(item.id, { root: item, replies: [] });
    else threads.get(item.threadId)?.replies.push(item);
  }
  return [...threads.values()];
}

/**
 * Where the text typed so far ends in an `@name` being written (for autocomplete): the name
 * typed (possibly empty) and where its `@` is; null when the caret is not in a mention.
 */
export function mentionAt(text: string, caret: number): { query: string; at: number } | null {
  const before = text.slice(0, caret);
  const match = /(^|[^A-Za-z0-9._@/-])@([A-Za-z0-9._-]{0,63})$/.exec(before);
  if (!match) return null;
  return { query: match[2], at: caret - match[2].length - 1 };
}
