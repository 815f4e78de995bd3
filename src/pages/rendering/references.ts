import { codeFenceTracker } from './code-fences';

/**
 * Finds the link and image targets of Markdown text (inline links and images, reference
 * definitions, raw `<img src>` / `<a href>`) outside code, and lets a callback replace them.
 */
export type ReferenceKind = 'link' | 'image' | 'include';

/** An include line (`![[target]]`, `![[target#name]]`, includes.ts): its target is a page. */
const INCLUDE_LINE = /^(\s{0,3}!\[\[\s*)([^\]#|\s]+)(\s*(?:#[^\]|]*)?\]\]\s*)$/;

/** Returns the new target, or undefined to leave the reference as it is. */
export type ReferenceRewriter = (target: string, kind: ReferenceKind) => string | undefined;

// Link text may hold one level of brackets (an image inside a link: [![alt](a.png)](b.md)).
const TEXT = String.raw`(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*`;
// A destination: <...> or a run without spaces, allowing one level of balanced parentheses.
const DEST = String.raw`<[^<>\n]*>|(?:[^\s()<>\\]|\\.|\((?:[^\s()\\]|\\.)*\))+`;
// Wiki.js image size suffix (=100x50, =x30) and an optional title.
const TAIL = String.raw`(\s+=\d*x\d*)?(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*`;

const INLINE = new RegExp(
  String.raw`(\x60+)[\s\S]*?\1|(!?)\[(${TEXT})\]\(\s*(${DEST})${TAIL}\)|<img\b([^>]*?)\bsrc\s*=\s*("[^"]*"|'[^']*')|<a\b([^>]*?)\bhref\s*=\s*("[^"]*"|'[^']*')`,
  'g',
);
// Footnotes (`[^1]: text`) look like definitions but hold text, not a target.
const DEFINITION = /^( {0,3}\[[^\]^\n][^\]\n]*\]:[ \t]*)(<[^>\n]*>|\S+)(.*)$/;

export function rewriteReferences(markdown: string, rewrite: ReferenceRewriter): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  const inFence = codeFenceTracker();
  let chunk: string[] = [];
  const flush = (): void => {
    if (chunk.length) out.push(rewriteChunk(chunk.join('\n'), rewrite));
    chunk = [];
  };
  for (const line of lines) {
    if (inFence(line)) {
      // Text before the fence is rewritten; the fenced lines themselves pass through.
      flush();
      out.push(line);
    } else if (INCLUDE_LINE.test(line)) {
      flush();
      out.push(rewriteInclude(line, rewrite));
    } else {
      chunk.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/** An include's target rewritten: a page's `/slug` (its fragment dropped) as the slug. */
function rewriteInclude(line: string, rewrite: ReferenceRewriter): string {
  const [, head, target, tail] = INCLUDE_LINE.exec(line)!;
  const next = rewrite(target, 'include');
  if (next === undefined) return line;
  return `${head}${next.replace(/^\/+/, '').replace(/[#?].*$/, '')}${tail}`;
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>')
    ? target.slice(1, -1)
    : target.replace(/\\(.)/g, '$1');
}

function balanced(target: string): boolean {
  let depth = 0;
  for (const c of target) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function wrap(target: string): string {
  return /[\s<>]/.test(target) || !balanced(target) ? `<${target}>` : target;
}

function rewriteChunk(text: string, rewrite: ReferenceRewriter): string {
  const replaced = text.replace(
    INLINE,
    (
      all,
      ticks: string,
      bang: string,
      label: string,
      dest: string,
      size: string,
      title: string,
      imgAttrs: string,
      src: string,
      aAttrs: string,
      href: string,
    ) => {
      if (ticks !== undefined) return all;
      if (dest !== undefined) {
        const kind: ReferenceKind = bang ? 'image' : 'link';
        const inner = kind === 'link' ? rewriteChunk(label, rewrite) : label;
        const target = unwrap(dest);
        const next = rewrite(target, kind);
        // The size suffix is Wiki.js-only syntax; CommonMark would not see an image at all.
        if (next === undefined && size === undefined && inner === label) return all;
        return `${bang}[${inner}](${next === undefined ? dest : wrap(next)}${title ?? ''})`;
      }
      if (src !== undefined) {
        const next = rewrite(src.slice(1, -1), 'image');
        return next === undefined ? all : `<img${imgAttrs}src="${next}"`;
      }
      const next = rewrite(href.slice(1, -1), 'link');
      return next === undefined ? all : `<a${aAttrs}href="${next}"`;
    },
  );
  if (!replaced.includes(']:')) return replaced;
  return replaced
    .split('\n')
    .map((line) => {
      const match = DEFINITION.exec(line);
      if (!match) return line;
      const target = unwrap(match[2]);
      const next = rewrite(
        target,
        /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i.test(target) ? 'image' : 'link',
      );
      return next === undefined ? line : `${match[1]}${wrap(next)}${match[3]}`;
    })
    .join('\n');
}
