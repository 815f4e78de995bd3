import { absoluteLinks } from './absolute-links';
import { Problem } from '../../common/problems/problem';
import { DataUriCache } from './data-uri-cache';
import { inlineImages, storedImageIds } from './inline-images';
import { createValidationPipe } from '../../common/problems/validation';
import { PrintOverridesDto } from '../dto/print-overrides.dto';
import { validateOverrides } from './overrides';
import { markPageBreaks } from './page-breaks';
import { escapeHtml, printDocument } from './print-template';

const A = '11111111-2222-4333-8444-555555555555';

function thrown(fn: () => unknown): Problem {
  try {
    fn();
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error('nothing thrown');
}

describe('markPageBreaks', () => {
  it('turns marker lines outside code into page breaks after rendering', () => {
    const source = [
      'a',
      '<!-- pagebreak -->',
      'b',
      '  <!--page-break-->  ',
      '<hr class="page-break">',
      '```',
      '<!-- pagebreak -->',
      '```',
      'c <!-- pagebreak -->',
    ].join('\n');
    const breaks = markPageBreaks(source);
    expect(breaks.markdown).not.toContain('<!-- pagebreak -->\nb');
    const token = /kbpagebreak[0-9a-f]{16}/.exec(breaks.markdown)![0];
    expect(breaks.markdown.split(token)).toHaveLength(4);
    expect(breaks.markdown).toContain('```\n<!-- pagebreak -->\n```');
    expect(breaks.restore(`<p>a</p><p>${token}</p><p>b</p>`)).toBe(
      '<p>a</p><hr class="page-break" /><p>b</p>',
    );
  });

  it('leaves Markdown without markers untouched', () => {
    const breaks = markPageBreaks('no breaks here, just a page-break-inside mention');
    expect(breaks.markdown).toBe('no breaks here, just a page-break-inside mention');
    expect(breaks.restore('<p>x</p>')).toBe('<p>x</p>');
  });
});

describe('inlineImages', () => {
  const html = `<p><img src="/api/images/${A}/content" alt="Logo" /> <img src="https://t.example/p.png" alt="a &amp; b" /> <img src="/api/images/${A.replace('1', '9')}/content" /></p>`;

  it('lists stored image ids once', () => {
    expect(storedImageIds(html + html)).toEqual([A, A.replace('1', '9')]);
  });

  it('inlines stored images and replaces everything else by its alt text', () => {
    expect(inlineImages(html, new Map([[A, 'data:image/png;base64,AAAA']]))).toBe(
      '<p><img src="data:image/png;base64,AAAA" alt="Logo" /> <span class="kb-missing-image">[a &amp; b]</span> <span class="kb-missing-image">[image]</span></p>',
    );
  });

  it('reads a src the way page references are read: a query or fragment, any case; attachments are no images', () => {
    const odd = `<img src="/api/images/${A.toUpperCase()}/content?w=2" /><img src="/api/attachments/${A}/content" alt="file" />`;
    expect(storedImageIds(odd)).toEqual([A]);
    expect(inlineImages(odd, new Map([[A, 'data:image/png;base64,AAAA']]))).toBe(
      '<img src="data:image/png;base64,AAAA" /><span class="kb-missing-image">[file]</span>',
    );
  });
});

describe('overrides', () => {
  const pipe = createValidationPipe();
  const body = (value: unknown) =>
    pipe.transform(value, { type: 'body', metatype: PrintOverridesDto }).then(
      (dto) => ({ dto: dto as PrintOverridesDto }),
      (error: Problem) => ({
        status: error.status,
        code: error.code,
        extensions: error.extensions,
      }),
    );

  it('reads the body through the global pipe: nothing or {} means no overrides; malformed bodies are 400', async () => {
    await expect(body(undefined)).resolves.toEqual({ dto: {} });
    await expect(body({})).resolves.toEqual({ dto: {} });
    await expect(body({ variables: { a: 'b' } })).resolves.toEqual({
      dto: { variables: { a: 'b' } },
    });
    for (const value of [null, [], 'x', 3])
      await expect(body(value)).resolves.toMatchObject({ status: 400, code: 'invalid_body' });
    for (const variables of [null, [], 'x', 1, true])
      await expect(body({ variables })).resolves.toMatchObject({
        status: 400,
        code: 'invalid_variables',
      });
    await expect(body({ variables: {}, other: 1 })).resolves.toMatchObject({
      status: 422,
      extensions: { errors: [{ field: 'other', code: 'unknown_field' }] },
    });
  });

  it('accepts usable names with strings up to 10,000 characters and reports every bad name', () => {
    const defined = { used: 'x', unused: 'y', site: 'z' };
    expect(
      validateOverrides({ used: 'v'.repeat(10_000), site: '' }, defined, ['used', 'site']),
    ).toEqual({ used: 'v'.repeat(10_000), site: '' });
    const problem = thrown(() =>
      validateOverrides(
        { nope: 'a', unused: 'b', used: 1, site: 'v'.repeat(10_001), __proto__x: 'c' },
        defined,
        ['used', 'site'],
      ),
    );
    expect(problem.status).toBe(422);
    expect(
      (problem.extensions.errors as { field: string; code: string }[]).map((e) => [
        e.field,
        e.code,
      ]),
    ).toEqual([
      ['variables.nope', 'unknown_variable'],
      ['variables.unused', 'unused_variable'],
      ['variables.used', 'not_a_string'],
      ['variables.site', 'value_too_long'],
      ['variables.__proto__x', 'unknown_variable'],
    ]);
  });
});

describe('printDocument', () => {
  it('escapes the title, sets a safe language and embeds one stylesheet', () => {
    const doc = printDocument('<b>"T"</b>', 'de-DE', '<p>x</p>');
    expect(doc).toContain('<html lang="de-DE">');
    expect(doc).toContain('<title>&lt;b&gt;&quot;T&quot;&lt;/b&gt;</title>');
    expect(doc.match(/<style>/g)).toHaveLength(1);
    expect(
      printDocument('t', '"><script>', '').startsWith('<!DOCTYPE html>\n<html lang="en">'),
    ).toBe(true);
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('DataUriCache', () => {
  it('keeps recently used URIs within its budget and skips oversized ones', () => {
    const cache = new DataUriCache(10, 6);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa');
    cache.set('c', 'cccc'); // over budget: the least recently used ("b") goes
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['aaaa', undefined, 'cccc']);
    cache.set('d', 'ddddddd');
    expect(cache.get('d')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});

describe('absoluteLinks', () => {
  const base = 'https://kb.example/root';
  it('sends page links to the console, kb paths to kb, and leaves the rest as written', () => {
    const html =
      '<p><a href="/guide/setup#install">a</a> <a href="/api/attachments/0f0e/content" title="t">b</a>' +
      ' <a href="https://x.example/?a=1&amp;b=2">c</a> <a href="#top">d</a> <a>e</a></p>';
    expect(absoluteLinks(html, base, 'guide/intro')).toBe(
      '<p><a href="https://kb.example/root/wiki/guide/setup#install">a</a>' +
        ' <a href="https://kb.example/root/api/attachments/0f0e/content" title="t">b</a>' +
        ' <a href="https://x.example/?a=1&amp;b=2">c</a> <a href="#top">d</a> <a>e</a></p>',
    );
  });

  it('leaves images alone (they are inlined)', () => {
    const html = '<img src="/api/images/1/content" alt="x" /><a href="/p">p</a>';
    expect(absoluteLinks(html, base, 'p')).toBe(
      '<img src="/api/images/1/content" alt="x" /><a href="https://kb.example/root/wiki/p">p</a>',
    );
  });
});
