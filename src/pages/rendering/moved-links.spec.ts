import { rewriteMovedLinks } from './moved-links';

describe('rewriteMovedLinks', () => {
  const moves = new Map([
    ['guides/setup', 'handbook/setup'],
    ['guides/setup/linux', 'handbook/setup/linux'],
  ]);
  const movedTo = (slug: string) => moves.get(slug);

  it('points absolute and relative links at the new slugs, keeping fragments and text', () => {
    expect(
      rewriteMovedLinks(
        'See [setup](/guides/setup#top), [linux](guides/setup/linux) and [x](/other).',
        'index',
        'index',
        movedTo,
      ),
    ).toBe('See [setup](/handbook/setup#top), [linux](/handbook/setup/linux) and [x](/other).');
  });

  it('leaves relative links between pages that moved together as written', () => {
    expect(rewriteMovedLinks('[l](setup/linux)', 'guides/setup', 'handbook/setup', movedTo)).toBe(
      '[l](setup/linux)',
    );
  });

  it('repairs a moved page’s relative link to a page that stayed', () => {
    expect(rewriteMovedLinks('[faq](faq)', 'guides/setup', 'handbook/setup', movedTo)).toBe(
      '[faq](/guides/faq)',
    );
  });

  it('leaves code, images, external links and variables alone', () => {
    const text =
      '`[a](/guides/setup)`\n\n```\n[b](/guides/setup)\n```\n\n![i](/guides/setup) [e](https://x.test/guides/setup) [v]({{base}}/guides/setup)';
    expect(rewriteMovedLinks(text, 'index', 'index', movedTo)).toBe(text);
  });
});
