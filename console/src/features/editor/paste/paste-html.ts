/**
 * Pasted HTML (a web page, Word, Google Docs) as Markdown, by the same conversion the Confluence
 * import uses. It loads on the first HTML paste only: turndown stays out of the editor's chunk.
 */
export async function pastedHtmlToMarkdown(html: string): Promise<string> {
  const { htmlToMarkdown } = await import('kb-server/html-markdown');
  return htmlToMarkdown(html);
}

/** Whether a paste carries HTML worth converting (plain text copied from an editor does not). */
export function isRichPaste(html: string, text: string): boolean {
  if (!html.trim()) return false;
  // A copy from a code editor or a terminal is <pre>/<span>s around the same text: keep it plain.
  return /<(h[1-6]|p|ul|ol|li|table|a|strong|b|em|i|blockquote|img)\b/i.test(html) || !text;
}
