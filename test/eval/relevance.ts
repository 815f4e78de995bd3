/**
 * Relevance metrics of the search evaluation (`npm run search:eval`): graded judgments (0, 1,
 * 2), NDCG@10 with gains 2^grade − 1 (the ideal order from all judged pages), and the
 * reciprocal rank of the first page graded 2 in the first 10 results.
 */
export type Judgments = Record<string, number>;

export interface QueryScore {
  ndcg: number;
  rr: number;
}

const DEPTH = 10;

const gain = (grade: number) => 2 ** grade - 1;
const discount = (rank: number) => 1 / Math.log2(rank + 2);

export function scoreQuery(ranked: string[], judgments: Judgments): QueryScore {
  const top = ranked.slice(0, DEPTH);
  const dcg = top.reduce((sum, slug, i) => sum + gain(judgments[slug] ?? 0) * discount(i), 0);
  const ideal = Object.values(judgments)
    .sort((a, b) => b - a)
    .slice(0, DEPTH)
    .reduce((sum, grade, i) => sum + gain(grade) * discount(i), 0);
  const first = top.findIndex((slug) => (judgments[slug] ?? 0) >= 2);
  return { ndcg: ideal === 0 ? 0 : dcg / ideal, rr: first < 0 ? 0 : 1 / (first + 1) };
}

export interface Summary {
  queries: number;
  ndcg10: number;
  mrr: number;
}

export function summarise(scores: QueryScore[]): Summary {
  const mean = (values: number[]) =>
    values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    queries: scores.length,
    ndcg10: round(mean(scores.map((s) => s.ndcg))),
    mrr: round(mean(scores.map((s) => s.rr))),
  };
}
