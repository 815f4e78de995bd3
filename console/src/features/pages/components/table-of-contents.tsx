import { useMemo } from 'react';

interface Heading {
  id: string;
  text: string;
  level: number;
}

/** The headings (with the anchor ids the renderer gives them) of rendered page HTML. */
export function headingsOf(html: string): Heading[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [...doc.querySelectorAll<HTMLElement>('h1[id], h2[id], h3[id], h4[id]')].map((h) => ({
    id: h.id,
    text: h.textContent?.trim() ?? '',
    level: Number(h.tagName.slice(1)),
  }));
}

/**
 * "Contents" for a page with three or more headings: links to each, indented by level. Not
 * when the author placed a table of contents with `[[toc]]` (the renderer's `nav.kb-toc`).
 */
export function TableOfContents({ html }: { html: string }) {
  const headings = useMemo(() => headingsOf(html), [html]);
  if (headings.length < 3 || html.includes('<nav class="kb-toc">')) return null;
  const top = Math.min(...headings.map((h) => h.level));
  return (
    <nav className="toc" aria-labelledby="toc-title">
      <h2 id="toc-title" className="toc__title">
        Contents
      </h2>
      <ol className="toc__list">
        {headings.map((h) => (
          <li key={h.id} className={`toc__item toc__item--${h.level - top}`}>
            <a href={`#${encodeURIComponent(h.id)}`}>{h.text}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
