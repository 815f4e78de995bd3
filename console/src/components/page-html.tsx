import { useLayoutEffect, useRef, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { consoleHrefOf, paths } from '../lib/slugs';
import { enhanceCodeBlocks } from '../lib/code-blocks';

/**
 * Page HTML as the API rendered and sanitised it, shown as is, with Copy and Line numbers on
 * code blocks. Internal links (the renderer
 * writes them as `/<slug>`) are pointed at `/wiki/<slug>` so hovering, copying and opening in
 * a new tab work, and a plain click navigates inside the console. A link the API marked
 * `kb-missing` (no page the reader may open) leads an editor to the new-page form for its slug.
 */
export function PageHtml({
  html,
  className = 'prose',
  editor = false,
}: {
  html: string;
  className?: string;
  editor?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    for (const link of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      const href = link.getAttribute('href') ?? '';
      const mapped = consoleHrefOf(href);
      if (mapped && editor && link.classList.contains('kb-missing')) {
        const slug = decodeURIComponent(href.replace(/^\/+/, '').replace(/[?#].*$/, ''));
        link.setAttribute('href', `${paths.newPage()}?slug=${encodeURIComponent(slug)}`);
      } else if (mapped) link.setAttribute('href', mapped);
    }
    // Code blocks and tables scroll sideways when wide: keyboard users must reach them too.
    for (const block of root.querySelectorAll<HTMLElement>('pre, table')) block.tabIndex = 0;
    enhanceCodeBlocks(root);
    // Typeset math uses KaTeX's stylesheet and fonts: loaded with the first page that has some.
    if (html.includes('class="katex')) void import('katex/dist/katex.min.css');
  }, [html, editor]);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest?.('a[href]');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.getAttribute('target') || link.hasAttribute('download')) return;
    const href = link.getAttribute('href') ?? '';
    if (href.startsWith('#')) return;
    if (!href.startsWith('/wiki/') && !href.startsWith('/new?')) return;
    event.preventDefault();
    navigate(href);
  };

  return (
    // Delegation: Enter on a focused link fires this click too.
    <div
      ref={ref}
      className={className}
      onClick={onClick}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
