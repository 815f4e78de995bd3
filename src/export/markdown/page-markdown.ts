import { markdownTitle } from '../../pages/public-api';

/**
 * The Markdown file of a page: `# Title` (escaped where Markdown would read it otherwise), a
 * blank line, the stored content (variables kept as `{{name}}`), one final newline. The
 * Markdown importer takes the first level-one heading back out as the title (as plain text),
 * so export → import leaves title and content unchanged.
 */
export function pageMarkdown(title: string, content: string): string {
  const body = content.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  const heading = `# ${markdownTitle(title)}`;
  return body === '' ? `${heading}\n` : `${heading}\n\n${body}\n`;
}
