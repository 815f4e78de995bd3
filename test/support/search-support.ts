import type { Client } from './users';

export interface PageInput {
  slug: string;
  title: string;
  content?: string;
  tags?: string[];
  groups?: string[];
}

/** Creates a page through the API and returns the response body. */
export async function createPage(
  client: Client,
  page: PageInput,
): Promise<Record<string, unknown>> {
  const res = await client.post('/api/pages').send({ content: '', ...page });
  if (res.status !== 201)
    throw new Error(`create ${page.slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** Searches and returns the response body (expects 200). */
export async function search(
  client: Client,
  q: string,
  extra = '',
): Promise<{ items: SearchItem[]; nextCursor: string | null }> {
  const res = await client.get(`/api/search?q=${encodeURIComponent(q)}${extra}`);
  if (res.status !== 200)
    throw new Error(`search ${JSON.stringify(q)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { items: SearchItem[]; nextCursor: string | null };
}

export interface SearchItem {
  slug: string;
  title: string;
  snippet: string;
  tags: string[];
  updatedAt: string;
}

export async function slugsFor(client: Client, q: string): Promise<string[]> {
  return (await search(client, q)).items.map((i) => i.slug);
}

/** Pages that dilute word statistics, so relevance on MariaDB (IDF) is not zero in tiny tables. */
export async function fillerPages(client: Client, count: number, prefix = 'filler'): Promise<void> {
  for (let i = 0; i < count; i++) {
    await createPage(client, {
      slug: `${prefix}/page-${i}`,
      title: `Filler ${i}`,
      content: `Unrelated filler text number ${i} about gardening.`,
    });
  }
}
