import { parseSearchQuery, toBooleanMatch, toFts5Match, tokenize } from './search-terms';

describe('search terms', () => {
  const word = (text: string, prefix = false) => ({ kind: 'word', text, prefix });

  it('keeps only words of unknown syntax, lower-cased, in order', () => {
    const terms = tokenize(`world* (a:b) NEAR(c d) 50% ;DROP TABLE pages;--`);
    expect(terms.groups).toEqual(
      ['world', 'a', 'b', 'near', 'c', 'd', '50', 'drop', 'table']
        .map((w) => [word(w)])
        .concat([[word('pages', true)]]),
    );
    expect(terms.excluded).toEqual([]);
    expect(terms.words).toEqual([
      'world',
      'a',
      'b',
      'near',
      'c',
      'd',
      '50',
      'drop',
      'table',
      'pages',
    ]);
    // The last word is a prefix (search as you type), with or without a trailing `*`.
    expect(tokenize('Kubern*').groups).toEqual([[word('kubern', true)]]);
    expect(tokenize('kubern* guide').groups).toEqual([[word('kubern')], [word('guide', true)]]);
    expect(tokenize('ro').prefixLast).toBe(true);
    // One letter matches whole.
    expect(tokenize('deploy k')).toMatchObject({ prefixLast: false, words: ['deploy', 'k'] });
    expect(tokenize('*** %% --').groups).toEqual([]);
  });

  it('reads phrases, exclusions and OR', () => {
    const terms = tokenize('"Rolling Update" -canary blue OR green');
    expect(terms.groups).toEqual([
      [{ kind: 'phrase', words: ['rolling', 'update'] }],
      [word('blue'), word('green', true)],
    ]);
    expect(terms.excluded).toEqual([word('canary')]);
    // `or` in lower case is a word; a leading OR or a lone quote mean nothing special.
    expect(tokenize('this or that').groups).toHaveLength(3);
    expect(tokenize('OR x').groups).toEqual([[word('x')]]);
    expect(tokenize('"unclosed phrase').groups).toEqual([
      [{ kind: 'phrase', words: ['unclosed', 'phrase'] }],
    ]);
  });

  it('turns runs of unspaced scripts into runs of character pairs', () => {
    expect(tokenize('東京都 の会議').groups).toEqual([
      [{ kind: 'run', text: '東京都', pairs: ['東京', '京都'] }],
      [{ kind: 'run', text: 'の会議', pairs: ['の会', '会議'] }],
    ]);
    // Latin letters beside a run are words of their own.
    expect(tokenize('Node東京').groups).toEqual([
      [word('node')],
      [{ kind: 'run', text: '東京', pairs: ['東京'] }],
    ]);
  });

  it('reads filters and refuses bad values with a field problem on q', () => {
    const terms = tokenize(
      'deploy tag:ops tag:"on call" owner:alice under:/runbooks/ lifecycle:Published verified:yes lang:pt-BR updated:>2026-01-01 updated:<2026-03-01 is:missing-links',
    );
    // A word followed by filters is complete: not a prefix.
    expect(terms.groups).toEqual([[word('deploy')]]);
    expect(terms.filters).toEqual({
      tags: ['ops', 'on call'],
      owner: 'alice',
      under: 'runbooks',
      lifecycle: 'published',
      verified: true,
      lang: 'pt-br',
      updatedAfter: '2026-01-02',
      updatedBefore: '2026-03-01',
      missingLinks: true,
    });
    expect(tokenize('updated:2026-02-03').filters).toMatchObject({
      updatedAfter: '2026-02-03',
      updatedBefore: '2026-02-04',
    });
    for (const bad of [
      'lifecycle:gone',
      'verified:maybe',
      'updated:>yesterday',
      'is:orphan',
      'tag:',
      'lang:1',
    ]) {
      expect(() => tokenize(bad)).toThrow();
    }
    // Not a known filter: two words.
    expect(tokenize('title:zanzibar').groups).toEqual([[word('title')], [word('zanzibar', true)]]);
  });

  it('quotes every word for FTS5 so operators are plain words', () => {
    expect(toFts5Match(tokenize('NOT near'))).toBe(
      '({title body tags} : "not") AND ({title body tags} : "near"*)',
    );
    expect(toFts5Match(tokenize('a OR "b c" -d 東京'))).toBe(
      '((({title body tags} : "a") OR ({title body tags} : "b c")) AND ({title_grams body_grams} : "東京")) NOT (({title body tags} : "d"))',
    );
    expect(toFts5Match(tokenize('x"y'), 'title')).toBe('({title} : "x") AND ({title} : "y")');
    expect(toFts5Match(tokenize('-only'))).toBeNull();
  });

  it('requires every term in BOOLEAN MODE, short words padded for the grams columns', () => {
    expect(toBooleanMatch(tokenize('go deploy guide*'), 3)).toBe('+_go +deploy +guide*');
    expect(toBooleanMatch(tokenize('deploy gu'), 3)).toBe('+deploy +(_gu gu*)');
    expect(toBooleanMatch(tokenize('C# -x "a b" 東京都'), 3)).toBe(
      '+__c +"a b" +"_東京 _京都" -__x',
    );
    expect(toBooleanMatch(tokenize('c OR d'), 3, 'any')).toBe('(__c __d)');
  });

  it('refuses missing, repeated, blank and overlong queries with a field problem on q', () => {
    const codeOf = (value: unknown): string | undefined => {
      try {
        parseSearchQuery(value);
        return undefined;
      } catch (error) {
        return (error as { errors: { field: string; code: string }[] }).errors
          .map((e) => `${e.field}:${e.code}`)
          .join();
      }
    };
    expect(codeOf(undefined)).toBe('q:required');
    expect(codeOf(['a', 'b'])).toBe('q:invalid');
    expect(codeOf('   ')).toBe('q:blank');
    expect(codeOf('x'.repeat(257))).toBe('q:too_long');
    expect(codeOf('x'.repeat(256))).toBeUndefined();
  });
});
