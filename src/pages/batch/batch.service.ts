import { Injectable } from '@nestjs/common';
import { AuthUser, isAdmin } from '../../common/auth/auth-user';
import { requireSlugsInScope } from '../../common/auth/token-scope';
import { Database, Tx } from '../../common/database/database';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { audit } from '../../common/logging/audit';
import {
  FieldProblem,
  FieldProblems,
  ForbiddenProblem,
  NotFoundProblem,
  PreconditionFailedProblem,
  Problem,
} from '../../common/problems/problem';
import { createValidationPipe } from '../../common/problems/validation';
import { CreatePageDto, UpdatePageDto } from '../dto/page.dto';
import { MovePagesDto } from '../dto/page-move.dto';
import { PageAccessService } from '../page-access.service';
import { PageBinService } from '../page-bin.service';
import { PageMoveService } from '../page-move.service';
import { PageWriterService, WriteOptions } from '../page-writer.service';
import { ifMatchAllows, parseIfMatch } from '../model/preconditions';
import { normaliseSlugField } from '../model/slug';
import type { PageRecord } from '../model/page-columns';
import { PagesRepository } from '../store/pages.repository';
import { BATCH_OPS, BatchOp, BatchResultDto, MAX_BATCH_OPERATIONS } from './batch.dto';

/** An operation after its members were checked by its op's rules. */
type Planned =
  | { index: number; op: 'create'; slug: string; body: CreatePageDto }
  | {
      index: number;
      op: 'update' | 'metadata';
      slug: string;
      ifMatch?: string;
      body: UpdatePageDto;
    }
  | { index: number; op: 'move'; slug: string; body: MovePagesDto }
  | { index: number; op: 'bin'; slug: string; ifMatch?: string };

/** Members an op takes beside `op`, `slug` and `ifMatch` (the rest go to its DTO's rules). */
const METADATA_MEMBERS = new Set([
  'tags',
  'properties',
  'lifecycle',
  'owner',
  'icon',
  'language',
  'reviewIntervalDays',
  'nextReviewAt',
  'deprecatedTarget',
  'variables',
  'baseRevision',
]);

/** A problem of operation `index`, its field problems' paths under `operations[index]`. */
function atOperation(error: unknown, index: number, op: string): unknown {
  if (!(error instanceof Problem)) return error;
  const extensions: Record<string, unknown> = { ...error.extensions, index, op };
  const errors = (error instanceof FieldProblems ? error.errors : extensions.errors) as
    FieldProblem[] | undefined;
  if (Array.isArray(errors))
    extensions.errors = errors.map((e) => ({
      ...e,
      field: `operations[${index}]${e.field ? `.${e.field}` : ''}`,
    }));
  return new Problem(
    error.status,
    error.code,
    `Operation ${index} (${op}): ${error.detail} Nothing was applied.`,
    extensions,
    error.headers,
  );
}

function ifMatchOf(value: unknown, index: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return `"${value}"`;
  if (typeof value === 'string' && value.length <= 100) return value;
  throw new FieldProblems([
    {
      field: `operations[${index}].ifMatch`,
      code: 'invalid_if_match',
      message: 'ifMatch is an ETag such as "3" or a revision number.',
    },
  ]);
}

/**
 * POST /api/batch (issue 34): many page changes in ONE transaction, all or none. Each
 * operation runs through the same use case as its single route (create, update, move, bin), so
 * every rule holds (roles, visibility, token paths, protected paths, preconditions); the first
 * that fails rolls everything back and the answer names its index. Events go to the outbox in
 * the transaction (webhooks and the event feed see them only after the commit); audit lines
 * are written after the commit.
 */
@Injectable()
export class BatchService {
  private readonly pipe = createValidationPipe();

  constructor(
    private readonly db: Database,
    private readonly pages: PagesRepository,
    private readonly writer: PageWriterService,
    private readonly mover: PageMoveService,
    private readonly bin: PageBinService,
    private readonly access: PageAccessService,
  ) {}

  async apply(operations: Record<string, unknown>[], actor: AuthUser): Promise<BatchResultDto[]> {
    if (operations.length > MAX_BATCH_OPERATIONS)
      throw new FieldProblems([
        {
          field: 'operations',
          code: 'too_many_operations',
          message: `A batch holds at most ${MAX_BATCH_OPERATIONS} operations; this one has ${operations.length}. Split it.`,
        },
      ]);
    const planned = await this.plan(operations, actor);
    const afterCommit: (() => void)[] = [];
    const binned: PageRecord[] = [];
    const results = await this.db
      .transaction(async (tx) => {
        const out: BatchResultDto[] = [];
        for (const op of planned) {
          try {
            out.push(await this.run(op, actor, tx, afterCommit, binned));
          } catch (error) {
            throw atOperation(error, op.index, op.op);
          }
        }
        return out;
      })
      .catch((error: unknown) => {
        if (!(error instanceof Problem) && isUniqueViolation(error))
          throw new Problem(
            409,
            'slug_taken',
            'A slug of the batch was taken meanwhile; nothing was applied. Try again.',
          );
        throw error;
      });
    for (const run of afterCommit) run();
    this.bin.announceBinned(binned, actor);
    audit('batch.applied', {
      actorId: actor.id,
      target: 'batch',
      operations: planned.length,
      counts: Object.fromEntries(
        BATCH_OPS.map((op) => [op, planned.filter((p) => p.op === op).length]),
      ),
    });
    return results;
  }

  /** Checks every operation's members (422 naming each bad one) before anything is written. */
  private async plan(operations: Record<string, unknown>[], actor: AuthUser): Promise<Planned[]> {
    const problems: FieldProblem[] = [];
    const planned: Planned[] = [];
    const seen = new Map<string, number>();
    for (const [index, raw] of operations.entries()) {
      const at = (field: string) => `operations[${index}].${field}`;
      const { op, slug, ifMatch, ...rest } = raw;
      if (typeof op !== 'string' || !(BATCH_OPS as readonly string[]).includes(op)) {
        problems.push({
          field: at('op'),
          code: 'invalid_op',
          message: `op must be one of ${BATCH_OPS.join(', ')}.`,
        });
        continue;
      }
      if (typeof slug !== 'string' || slug.trim() === '') {
        problems.push({ field: at('slug'), code: 'required', message: 'slug names the page.' });
        continue;
      }
      const key = normaliseSlugField(slug);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push({
          field: at('slug'),
          code: 'duplicate_slug',
          message: `"${key}" is already named by operation ${earlier}; one operation per page.`,
        });
        continue;
      }
      seen.set(key, index);
      try {
        planned.push(await this.check(index, op as BatchOp, slug, ifMatch, rest, actor));
      } catch (error) {
        if (!(error instanceof FieldProblems)) throw atOperation(error, index, op);
        problems.push(...error.errors.map((e) => ({ ...e, field: at(e.field) })));
      }
    }
    if (problems.length > 0)
      throw new FieldProblems(problems, 'Some operations are invalid; nothing was applied.');
    return planned;
  }

  private async check(
    index: number,
    op: BatchOp,
    slug: string,
    ifMatch: unknown,
    rest: Record<string, unknown>,
    actor: AuthUser,
  ): Promise<Planned> {
    const only = (allowed: Set<string>) => {
      const unknown = Object.keys(rest).filter((k) => !allowed.has(k));
      if (unknown.length > 0)
        throw new FieldProblems(
          unknown.map((k) => ({
            field: k,
            code: 'unknown_field',
            message: `A ${op} operation takes no "${k}".`,
          })),
        );
    };
    const validate = async <T>(metatype: new () => T, value: object): Promise<T> =>
      (await this.pipe.transform(value, { type: 'body', metatype })) as T;
    switch (op) {
      case 'create':
        if (ifMatch !== undefined)
          throw new FieldProblems([
            { field: 'ifMatch', code: 'unknown_field', message: 'A create takes no ifMatch.' },
          ]);
        return { index, op, slug, body: await validate(CreatePageDto, { ...rest, slug }) };
      case 'update':
        return {
          index,
          op,
          slug,
          ifMatch: ifMatchOf(ifMatch, index),
          body: await validate(UpdatePageDto, rest),
        };
      case 'metadata':
        only(METADATA_MEMBERS);
        return {
          index,
          op,
          slug,
          ifMatch: ifMatchOf(ifMatch, index),
          body: await validate(UpdatePageDto, rest),
        };
      case 'move': {
        only(new Set(['to', 'subtree', 'rewriteLinks']));
        const body = await validate(MovePagesDto, { ...rest, from: slug });
        return { index, op, slug, body };
      }
      case 'bin':
        only(new Set());
        if (!isAdmin(actor))
          throw new ForbiddenProblem(
            'insufficient_role',
            'Moving a page to the bin needs the role admin.',
          );
        return { index, op, slug, ifMatch: ifMatchOf(ifMatch, index) };
    }
  }

  private async run(
    op: Planned,
    actor: AuthUser,
    tx: Tx,
    afterCommit: (() => void)[],
    binned: PageRecord[],
  ): Promise<BatchResultDto> {
    const options: WriteOptions = { tx, afterCommit };
    const base = { index: op.index, op: op.op, slug: normaliseSlugField(op.slug) };
    switch (op.op) {
      case 'create': {
        const page = await this.writer.create(op.body, actor, options);
        return { ...base, id: page.id, revision: page.revision };
      }
      case 'update':
      case 'metadata': {
        let ifMatch = op.ifMatch;
        if (op.op === 'metadata' && ifMatch === undefined && op.body.baseRevision === undefined) {
          // Setting tags or metadata without a precondition: on the revision it is at now.
          const page = await this.visible(base.slug, actor, tx);
          ifMatch = `"${page.revision}"`;
        }
        const id = await this.writer.update(
          op.slug,
          op.body,
          actor,
          { ifMatch, baseRevision: op.body.baseRevision },
          options,
        );
        const page = await this.pages.findById(id, tx);
        return { ...base, id, revision: page!.revision };
      }
      case 'move': {
        const result = await this.mover.move(op.body, actor, options);
        return { ...base, moved: result.moved };
      }
      case 'bin': {
        const page = await this.visible(base.slug, actor, tx);
        requireSlugsInScope(actor, [page.slug]);
        const expected = parseIfMatch(op.ifMatch);
        if (!ifMatchAllows(expected, page.revision))
          throw new PreconditionFailedProblem(
            'revision_mismatch',
            `The page is at revision ${page.revision}.`,
            { currentRevision: page.revision },
          );
        await this.bin.binWithin(tx, page, actor);
        binned.push(page);
        return { ...base, id: page.id };
      }
    }
  }

  private async visible(slug: string, actor: AuthUser, tx: Tx): Promise<PageRecord> {
    const page = await this.pages.findLive(slug, tx);
    if (!page || !this.access.canSee(page, actor)) throw new NotFoundProblem('page');
    return page;
  }
}
