import { AnyReadQuery, readQueriesByName, readQuery } from '../../common/database/sql';
import * as linkReport from './link-report';
import * as lists from './page-lists';
import { listTreeLevel } from './page-tree';
import { PAGES_READ_QUERIES } from './read-queries';
import * as redirects from './redirects';
import * as moves from './page-moves';
import { listRevisions } from './revisions';
import * as search from './search/search-pages';
import { correctSpelling } from './search/spelling';
import { suggestPages } from './search/suggest-pages';

describe('PAGES_READ_QUERIES', () => {
  it('holds every ReadQuery of the pages store under its own name', () => {
    const defined = (
      [
        ...Object.values(lists),
        ...Object.values(linkReport),
        ...Object.values(redirects),
        ...Object.values(moves),
        listTreeLevel,
        listRevisions,
        ...Object.values(search),
        suggestPages,
        correctSpelling,
      ] as unknown[]
    ).filter(
      (value): value is AnyReadQuery =>
        typeof value === 'object' && value !== null && 'run' in value && 'name' in value,
    );
    expect([...PAGES_READ_QUERIES.values()].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      defined.sort((a, b) => a.name.localeCompare(b.name)),
    );
    for (const [name, query] of PAGES_READ_QUERIES) expect(query.name).toBe(name);
  });

  it('refuses two queries of one name', () => {
    const one = readQuery('x', async () => 1);
    expect(() => readQueriesByName([one, readQuery('x', async () => 2)])).toThrow(
      'Two read queries are named x',
    );
  });
});
