import { MarkdownRenderer } from './markdown-renderer';
import { excerptOf, fillIncludes, holdsIncludes, includeKeys, includeTarget } from './includes';

describe('includes in the renderer', () => {
  const renderer = new MarkdownRenderer();

  it('turns an include line into an empty placeholder and records its slug as a link', () => {
    const page = renderer.renderPage(
      '# T\n\n![[Ops/Runbook]]\n\ntext ![[inline]] stays\n\n![[/ops/runbook#steps]]\n',
      {},
      'a',
    );
    expect(page.html).toContain('<div class="kb-include" data-include="ops/runbook"></div>');
    expect(page.html).toContain('<div class="kb-include" data-include="ops/runbook#steps"></div>');
    expect(page.html).toContain('<p>text ![[inline]] stays</p>');
    expect(page.links).toEqual(['ops/runbook']);
    expect(includeKeys(page.html)).toEqual(['ops/runbook', 'ops/runbook#steps']);
    expect(renderer.extractLinks('![[ops/x#y]]\n', 'a')).toEqual(['ops/x']);
  });

  it('shows an include of an invalid slug as the neutral note', () => {
    const html = renderer.render('![[a/../b]]');
    expect(holdsIncludes(html)).toBe(false);
    expect(html).toContain('kb-include-unavailable');
  });

  it('never lets authored HTML forge a placeholder or an excerpt', () => {
    const html = renderer.render(
      '<div class="kb-include" data-include="secret"></div>\n\n<div class="kb-excerpt" data-excerpt="x">y</div>',
    );
    expect(holdsIncludes(html)).toBe(false);
    expect(excerptOf(html, 'x')).toBeNull();
  });

  it('marks excerpts so that their HTML can be cut out, nested blocks included', () => {
    const html = renderer.render(
      'before\n\n:::excerpt steps\nHello *x*\n\n::: details More\ninside\n:::\n\n> [!NOTE]\n> n\n:::\n\nafter\n',
    );
    const excerpt = excerptOf(html, 'steps');
    expect(excerpt).toContain('<p>Hello <em>x</em></p>');
    expect(excerpt).toContain('<details><summary>More</summary>');
    expect(excerpt).toContain('</details>');
    expect(excerpt).not.toContain('after');
    expect(excerpt).not.toContain('before');
    expect(excerptOf(html, 'other')).toBeNull();
  });

  it('fills placeholders by key', () => {
    const html = renderer.render('![[a]]\n\n![[b#c]]\n');
    expect(fillIncludes(html, (key) => `[${key}]`)).toBe('[a]\n[b#c]\n');
  });

  it('parses include lines', () => {
    expect(includeTarget('![[ a/b # name ]]')).toEqual({ slug: 'a/b', excerpt: 'name' });
    expect(includeTarget('![[a/b]] x')).toBeNull();
    expect(includeTarget('![[a/b#]]')).toEqual({ slug: 'a/b', excerpt: null });
  });
});
