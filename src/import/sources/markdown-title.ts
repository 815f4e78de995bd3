const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_H1 = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;

export interface TitleSplit {
  title?: string;
  /** The text with that heading line (and setext underline) removed. */
  body: string;
}

/**
 * Finds the first level-one heading outside code (`# Title`, or `Title` underlined with `===`)
 * and removes it: kb's Markdown export writes `# Title` above the content, so import takes it
 * back out and a round trip leaves the content unchanged.
 */
export function extractTitle(markdown: string): TitleSplit {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      continue;
    }
    const atx = ATX_H1.exec(line);
    if (atx && atx[1].trim() !== '') {
      return { title: atx[1].trim(), body: removeLines(lines, i, 1) };
    }
    if (
      line.trim() !== '' &&
      i + 1 < lines.length &&
      SETEXT_H1.test(lines[i + 1]) &&
      (i === 0 || lines[i - 1].trim() === '')
    ) {
      return { title: line.trim(), body: removeLines(lines, i, 2) };
    }
  }
  return { body: markdown };
}

function removeLines(lines: string[], index: number, count: number): string {
  const rest = [...lines.slice(0, index), ...lines.slice(index + count)];
  return rest.join('\n');
}

/** Content as stored: no leading blank lines, no trailing whitespace, LF line ends. */
export function tidyContent(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}
