import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { Judgments, QueryScore, scoreQuery, Summary, summarise } from './relevance';

/**
 * The relevance suite (issue 32 item 8, docs/search.md "Relevance"): the judged queries of
 * test/fixtures/search-eval/queries.json over a corpus of real documentation (tldr-pages in
 * ten languages, CC BY 4.0, and the UDHR's Article 1), NDCG@10 and MRR per language, per kind
 * of query and overall, on the database of DB_TYPE. Fails when a figure falls below its floor
 * in floors.json: ranking got worse. `npm run search:eval` runs it on both databases.
 */
const FIXTURES = join(__dirname, '..', 'fixtures');
const read = <T>(path: string): T => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as T;

interface CorpusPage {
  slug: string;
  title: string;
  language: string;
  tags: string[];
  content: string;
}
interface Query {
  id: string;
  lang: string;
  kind: string;
  q: string;
  judgments: Judgments;
}
type Floors = Record<
  string,
  { overall: Omit<Summary, 'queries'>; byLanguage: Record<string, Omit<Summary, 'queries'>> }
>;

const corpus = read<{ pages: CorpusPage[] }>('search-eval/tldr-corpus.json').pages;
const udhr = read<{ texts: Record<string, string> }>('search/udhr-article-1.json').texts;
const { queries, synonyms } = read<{ queries: Query[]; synonyms: string[][] }>(
  'search-eval/queries.json',
);
const floors = read<Floors>('search-eval/floors.json');

describe(`search relevance (${DB_TYPE})`, () => {
  let t: TestApp;
  let reader: Client;
  const scores = new Map<string, QueryScore>();

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    const pages = [
      ...corpus.map(({ slug, title, language, tags, content }) => ({
        slug,
        title,
        language,
        tags,
        content,
      })),
      ...Object.entries(udhr).map(([language, text]) => ({
        slug: `udhr/${language}`,
        title: `UDHR Article 1 (${language})`,
        language,
        tags: ['udhr'],
        content: text,
      })),
    ];
    // A few requests at a time: the corpus is in place in seconds, in the same order each run.
    for (let i = 0; i < pages.length; i += 4) {
      await Promise.all(
        pages.slice(i, i + 4).map(async (page) => {
          const res = await admin.post('/api/pages').send(page);
          if (res.status !== 201) throw new Error(`${page.slug}: ${res.status} ${res.text}`);
        }),
      );
    }
    await admin.put('/api/search/synonyms').send(synonyms).expect(200);
  }, 600_000);
  afterAll(() => t.close());

  it('answers every judged query', async () => {
    for (const query of queries) {
      const ask = (q: string) =>
        reader.get(`/api/search?q=${encodeURIComponent(q)}&limit=10`).expect(200);
      let { body } = await ask(query.q);
      // As a person would: an empty answer with a suggestion is followed.
      if (body.items.length === 0 && body.didYouMean) ({ body } = await ask(body.didYouMean));
      const ranked = (body.items as { slug: string; attachment?: unknown }[])
        .filter((item) => !item.attachment)
        .map((item) => item.slug);
      scores.set(query.id, scoreQuery(ranked, query.judgments));
    }
    expect(scores.size).toBe(queries.length);
  });

  it('keeps NDCG@10 and MRR at or above their floors, overall and per language', () => {
    const group = (key: (q: Query) => string) => {
      const groups = new Map<string, QueryScore[]>();
      for (const query of queries) {
        const list = groups.get(key(query)) ?? [];
        list.push(scores.get(query.id)!);
        groups.set(key(query), list);
      }
      return Object.fromEntries([...groups].map(([name, list]) => [name, summarise(list)]));
    };
    const report = {
      database: DB_TYPE,
      overall: summarise([...scores.values()]),
      byLanguage: group((q) => q.lang),
      byKind: group((q) => q.kind),
      misses: queries.filter((q) => scores.get(q.id)!.rr === 0).map((q) => `${q.id} ${q.q}`),
    };
    const out = join(__dirname, '..', '..', '.test-results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `search-eval-${DB_TYPE}-report.json`), JSON.stringify(report, null, 1));

    const floor = floors[DB_TYPE];
    const below: string[] = [];
    const check = (name: string, got: Summary, want: Omit<Summary, 'queries'>) => {
      if (got.ndcg10 < want.ndcg10) below.push(`${name} NDCG@10 ${got.ndcg10} < ${want.ndcg10}`);
      if (got.mrr < want.mrr) below.push(`${name} MRR ${got.mrr} < ${want.mrr}`);
    };
    check('overall', report.overall, floor.overall);
    for (const [lang, want] of Object.entries(floor.byLanguage))
      check(lang, report.byLanguage[lang], want);
    expect(below).toEqual([]);
  });
});
