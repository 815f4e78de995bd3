import { z } from 'zod';

/**
 * The tools' input and output schemas (zod, as the MCP SDK expects; it publishes them as JSON
 * Schema in tools/list and checks arguments against them). Inputs are strict: an argument the
 * schema does not name is refused before the tool runs. They describe shape only; kb's own
 * field rules (slug, tags, groups, lengths) run behind them as they do for the REST API.
 */

const limit = z.number().int().min(1).max(100).optional().describe('page size, 1-100 (default 20)');
const cursor = z.string().min(1).optional().describe('nextCursor of the previous answer');
const slug = z.string().min(1).describe('the page slug, such as guides/setup');

export const searchPagesInput = z.strictObject({
  q: z.string().min(1).max(256).describe('words to find in titles, content and tags'),
  limit,
  cursor,
});
export const readPageInput = z.strictObject({ slug });
export const listRecentInput = z.strictObject({
  tag: z.string().min(1).optional().describe('only pages with this tag'),
  limit,
  cursor,
});
export const listTreeInput = z.strictObject({
  parent: z
    .string()
    .min(1)
    .optional()
    .describe('the slug whose children to list; absent: top level'),
  limit,
  cursor,
});
export const listBacklinksInput = z.strictObject({ slug });

const pageFields = {
  content: z.string().optional().describe('the Markdown body'),
  tags: z.array(z.string()).optional(),
  groups: z
    .array(z.string())
    .optional()
    .describe('groups allowed to see the page (empty: everyone who may read the wiki)'),
  icon: z.string().nullable().optional(),
};
export const createPageInput = z.strictObject({
  slug,
  title: z.string().min(1),
  ...pageFields,
});
export const movePageInput = z.strictObject({
  from: slug.describe('the slug of the page (or, with subtree, the folder) to move'),
  to: z.string().min(1).describe('its new slug'),
  subtree: z.boolean().optional().describe('also every page under `from` (default false)'),
  rewriteLinks: z
    .boolean()
    .optional()
    .describe('rewrite links to the old slugs in the pages you can see (default false)'),
  dryRun: z.boolean().optional().describe('answer what would move, change nothing'),
});
export const addCommentInput = z.strictObject({
  slug,
  body: z
    .string()
    .min(1)
    .max(10_000)
    .describe('Markdown; `@username` notifies someone who may read the page'),
  quote: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe("start an inline thread on this passage of the page's text"),
  parentId: z.string().uuid().optional().describe('reply in the thread of this comment'),
});
export const updatePageInput = z.strictObject({
  slug,
  baseRevision: z
    .number()
    .int()
    .min(1)
    .describe('the revision the change is based on (from read_page); a stale one is refused'),
  newSlug: z.string().min(1).optional().describe('move the page to this slug'),
  title: z.string().min(1).optional(),
  ...pageFields,
});

const pageLink = z.object({ slug: z.string(), title: z.string() });
const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** A page read: the REST answer of GET /api/pages/{slug}, metadata members included. */
export const pageOutput = z.looseObject({
  slug: z.string(),
  title: z.string(),
  content: z.string(),
  revision: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  tags: z.array(z.string()),
  backlinks: z.array(pageLink),
});
export const searchOutput = paged(
  z.looseObject({ slug: z.string(), title: z.string(), snippet: z.string() }),
);
export const pageListOutput = paged(
  z.looseObject({ slug: z.string(), title: z.string(), revision: z.number().int() }),
);
export const treeOutput = paged(
  z.looseObject({
    slug: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    hasChildren: z.boolean(),
  }),
);
export const moveOutput = z.looseObject({
  dryRun: z.boolean(),
  moved: z.array(z.object({ from: z.string(), to: z.string() })),
  rewritten: z.array(z.object({ slug: z.string(), revision: z.number().int() })),
});
export const commentOutput = z.looseObject({
  id: z.string(),
  threadId: z.string(),
  parentId: z.string().nullable(),
  body: z.string(),
  resolved: z.boolean(),
  outdated: z.boolean(),
});
export const backlinksOutput = z.object({ slug: z.string(), backlinks: z.array(pageLink) });

/** propose_change: a change request (docs/review.md), as POST /api/change-requests takes it. */
export const proposeChangeInput = z.strictObject({
  title: z.string().min(1).max(255).describe('what the change is about'),
  description: z.string().max(20000).optional().describe('why, in Markdown'),
  changes: z
    .array(
      z.strictObject({
        slug,
        action: z.enum(['update', 'create', 'bin', 'move']),
        content: z.string().optional().describe('the proposed Markdown (update, create)'),
        title: z.string().min(1).max(255).optional().describe('the proposed title'),
        baseRevision: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('the revision you read (update, bin, move)'),
        to: z.string().min(1).optional().describe('the new slug (move)'),
      }),
    )
    .min(1)
    .max(200),
});
export const changeRequestOutput = z.looseObject({
  id: z.number(),
  state: z.string(),
  url: z.string(),
  approvalsMissing: z.number(),
});
