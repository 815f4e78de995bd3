/**
 * `@username` mentions in a comment's Markdown: usernames as kb allows them (USERNAME_PATTERN),
 * after the start or a character that cannot be part of an address (so `me@example.org` is
 * not a mention), outside code spans and fenced code. Each name once, in the order written.
 */
const MENTION = /(^|[^A-Za-z0-9._@/-])@([A-Za-z0-9][A-Za-z0-9._-]{1,63})/g;

function withoutCode(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

export function mentionsIn(markdown: string): string[] {
  const names = new Map<string, string>();
  for (const match of withoutCode(markdown).matchAll(MENTION)) {
    // A trailing dot ends a sentence, not a name.
    const name = match[2].replace(/[.]+$/, '');
    if (name.length >= 2 && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}
