import type MarkdownIt from 'markdown-it';

/**
 * The language of a fenced code block from its info string, as kb renders and imports it
 * (pure; shared by the renderer and the importer).
 *
 * - Confluence code-macro parameters, as Confluence-to-Markdown converters leave them in the
 *   info string (`theme: Default; brush: cpp; gutter: true`, `first-line: 159; brush: java`):
 *   the `brush` (or `language`) value, mapped from Confluence's brush names (`js` →
 *   `javascript`, `sh` → `bash`…); `plain`, `text` and `none` mean no language.
 * - Pandoc attributes (`{.python .numberLines}`, `{r}`): the first class.
 * - Otherwise the first word, cut at a comma: mdBook/rustdoc write `rust,ignore`.
 */
const CONFLUENCE_BRUSHES: Record<string, string> = {
  js: 'javascript',
  jscript: 'javascript',
  py: 'python',
  sh: 'bash',
  shell: 'bash',
  ps: 'powershell',
  text: '',
  plain: '',
  none: '',
  'c#': 'csharp',
  'c++': 'cpp',
  cf: 'coldfusion',
  actionscript3: 'actionscript',
};

/** What a language name may hold (letters, digits, `#`, `+`, `.`, `_`, `-`). */
const LANGUAGE = /^[\p{L}\p{N}_#+.-]+$/u;

/** `key: value; key: value` as Confluence writes code-macro parameters. */
const CONFLUENCE_PARAMETERS = /^[a-z][\w-]*\s*:\s*[^;]*(?:;\s*[a-z][\w-]*\s*:\s*[^;]*)*;?\s*$/i;

/** A Confluence brush name (`py`, `c#`, `plain`) as a language ('' for none). */
export function confluenceLanguage(brush: string): string {
  const name = brush.trim().toLowerCase();
  if (name in CONFLUENCE_BRUSHES) return CONFLUENCE_BRUSHES[name];
  return LANGUAGE.test(name) ? name : '';
}

/** The language of Confluence code-macro parameters, or undefined when `info` is not such. */
export function languageFromParameters(info: string): string | undefined {
  if (!CONFLUENCE_PARAMETERS.test(info) || !/[:;]/.test(info)) return undefined;
  let language = '';
  for (const pair of info.split(';')) {
    const at = pair.indexOf(':');
    if (at < 0) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    if (key === 'brush' || key === 'language') language = confluenceLanguage(pair.slice(at + 1));
  }
  return language;
}

export function fenceLanguage(info: string): string {
  const text = info.trim();
  if (text === '') return '';
  const fromParameters = languageFromParameters(text);
  if (fromParameters !== undefined) return fromParameters;
  if (text.startsWith('{')) {
    const first = /^\{\s*\.?([^\s.}]+)/.exec(text)?.[1] ?? '';
    return LANGUAGE.test(first) ? first : '';
  }
  const first = text.split(/[\s,]+/)[0];
  return LANGUAGE.test(first) ? first : '';
}

type Md = InstanceType<typeof MarkdownIt>;

/**
 * Code classes from the info string's language only: `rust,ignore` renders as
 * `language-rust`, Confluence's `theme: Default; brush: cpp` as `language-cpp`.
 */
export function codeLanguagePlugin(md: Md): void {
  md.core.ruler.after('block', 'kb_code_languages', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'fence') token.info = fenceLanguage(token.info);
    }
  });
}
