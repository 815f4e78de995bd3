import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { AuthUser } from '../common/auth/auth-user';
import type { Role } from '../common/auth/roles';
import type { Paged } from '../common/http/pagination';
import { parseListRequest } from '../common/http/pagination';
import { ForbiddenProblem } from '../common/problems/problem';
import { createValidationPipe } from '../common/problems/validation';
import { RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import type { RateLimitClass } from '../common/rate-limit/rate-limit-policy';
import {
  CreatePageDto,
  UpdatePageDto,
  MovePagesDto,
  MoveResultResponse,
  PageMoveService,
  PageBrowseService,
  PagesService,
  SearchService,
  PageTreeService,
} from '../pages/public-api';
import type {
  PageLinkResponse,
  PageResponse,
  PageSummaryResponse,
  SearchResultItem,
  PageTreeNodeResponse,
} from '../pages/public-api';
import type {
  createPageInput,
  listRecentInput,
  listTreeInput,
  movePageInput,
  searchPagesInput,
  updatePageInput,
} from './mcp-schemas';

/** The roles POST and PUT /api/pages accept (`@Editors()`); a read token narrows to reader. */
const WRITERS: Role[] = ['admin', 'editor'];

/** MCP list arguments are numbers; the REST list rules read them as query strings. */
function listRequest(args: { limit?: number; cursor?: string }) {
  return parseListRequest({
    limit: args.limit === undefined ? undefined : String(args.limit),
    cursor: args.cursor,
  });
}

/**
 * The MCP tools' work, done by the services the REST controllers call, as the caller: the same
 * visibility, role rule (the route's `@Editors()`), rate-limit class, field validation (the
 * REST DTOs through the same ValidationPipe), audit lines and events. What is thrown is a kb
 * problem; McpServerFactory turns it into a tool error carrying its code.
 */
@Injectable()
export class McpPagesService {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly pages: PagesService,
    private readonly browse: PageBrowseService,
    private readonly tree: PageTreeService,
    private readonly searches: SearchService,
    private readonly moves: PageMoveService,
    private readonly rateLimits: RateLimitGuard,
  ) {}

  async search(
    user: AuthUser,
    args: z.infer<typeof searchPagesInput>,
  ): Promise<Paged<SearchResultItem>> {
    await this.spend(user, 'search');
    const limit = args.limit === undefined ? undefined : String(args.limit);
    return this.searches.search({ q: args.q, limit, cursor: args.cursor }, user);
  }

  /** GET /api/pages/{slug}: the same JSON the REST read answers. */
  async read(user: AuthUser, slug: string): Promise<PageResponse> {
    await this.spend(user, 'read');
    const read = await this.pages.read(slug, user);
    if (!('body' in read)) throw new Error('An unconditional read answered 304');
    return JSON.parse(read.body.toString('utf8')) as PageResponse;
  }

  /** The page's Markdown as stored (GET /api/pages/{slug}/raw), with its revision. */
  async markdown(user: AuthUser, slug: string): Promise<{ content: string; revision: number }> {
    await this.spend(user, 'read');
    const page = await this.pages.getVisible(slug, user);
    return { content: page.content, revision: page.revision };
  }

  async listRecent(
    user: AuthUser,
    args: z.infer<typeof listRecentInput>,
  ): Promise<Paged<PageSummaryResponse>> {
    await this.spend(user, 'read');
    return this.browse.listRecent(user, listRequest(args), { tag: args.tag });
  }

  async listTree(
    user: AuthUser,
    args: z.infer<typeof listTreeInput>,
  ): Promise<Paged<PageTreeNodeResponse>> {
    await this.spend(user, 'read');
    return this.tree.children(user, args.parent, listRequest(args));
  }

  async backlinks(
    user: AuthUser,
    slug: string,
  ): Promise<{ slug: string; backlinks: PageLinkResponse[] }> {
    await this.spend(user, 'read');
    const page = await this.pages.getVisible(slug, user);
    return { slug: page.slug, backlinks: await this.browse.backlinks(page.id, page.slug, user) };
  }

  /** POST /api/pages. */
  async create(user: AuthUser, args: z.infer<typeof createPageInput>): Promise<PageResponse> {
    this.requireWriter(user);
    await this.spend(user, 'write');
    const body = (await this.validation.transform(args, {
      type: 'body',
      metatype: CreatePageDto,
    })) as CreatePageDto;
    return (await this.pages.create(body, user)).body;
  }

  /** PUT /api/pages/{slug} with `baseRevision`: a stale one is 409 `revision_conflict`. */
  async update(user: AuthUser, args: z.infer<typeof updatePageInput>): Promise<PageResponse> {
    this.requireWriter(user);
    await this.spend(user, 'write');
    const { slug, newSlug, ...fields } = args;
    const body = (await this.validation.transform(
      newSlug === undefined ? fields : { ...fields, slug: newSlug },
      { type: 'body', metatype: UpdatePageDto },
    )) as UpdatePageDto;
    const read = await this.pages.update(slug, body, user, { baseRevision: body.baseRevision });
    return read.body;
  }

  /** POST /api/pages/move: the same plan, 409 naming every taken slug, redirects left behind. */
  async move(user: AuthUser, args: z.infer<typeof movePageInput>): Promise<MoveResultResponse> {
    this.requireWriter(user);
    await this.spend(user, 'write');
    const body = (await this.validation.transform(args, {
      type: 'body',
      metatype: MovePagesDto,
    })) as MovePagesDto;
    return this.moves.move(body, user);
  }

  private requireWriter(user: AuthUser): void {
    if (!WRITERS.includes(user.role)) {
      throw new ForbiddenProblem(
        'insufficient_role',
        `This needs the role ${WRITERS.join(' or ')}.`,
      );
    }
  }

  private async spend(user: AuthUser, cls: RateLimitClass): Promise<void> {
    const spent = await this.rateLimits.spend(user, cls);
    if (spent?.refused) throw spent.refused;
  }
}
