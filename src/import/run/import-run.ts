import type { ArchiveComment } from '../../comments/public-api';
import type { AuthUser } from '../../common/auth/auth-user';
import { isUniqueViolation } from '../../common/database/unique-violation';
import type { Tx } from '../../common/database/database';
import { IMPORT_FINISHED } from '../../common/events/domain-events';
import { ConflictProblem, FieldProblem, FieldProblems } from '../../common/problems/problem';
import { variableProblems } from '../../pages/public-api';
import type { PageRecord } from '../../pages/public-api';
import { ImportBudget } from '../import-budget';
import { convertSources } from '../import-formats';
import { ignoredFiles, noDocumentProblems } from '../import-outcome';
import { emptyReport, finishReport } from '../import.mapper';
import type {
  ConversionResult,
  ImportDocument,
  ImportedPageOutcome,
  ImportReport,
  SourceEntry,
} from '../import.types';
import { pacer } from '../pace';
import {
  MediaKindOf,
  planReferences,
  ReferenceIndex,
  rewriteDocument,
} from '../reference-resolver';
import { MANIFEST_PATH } from '../sources/kb-archive';
import { dropExtension, slugFromPath } from '../slugs';
import { expandUploads } from '../source-tree';
import { importedPage } from './imported-page';
import { RunMedia } from './run-media-step';
import {
  ImportCancelled,
  ImportDeps,
  ImportPhase,
  ImportProgress,
  ImportUpload,
  RunHooks,
} from './run-types';

const INVALID_DOCUMENTS =
  'Some documents are invalid; nothing was imported (send skipInvalid=true to import the rest).';

/** What the run decided before writing: which files become media, which pages exist. */
export interface RunPlan {
  conversion: ConversionResult;
  index: ReferenceIndex;
  /** Referenced files by archive path, with the kind they are stored as. */
  assets: Map<string, MediaKindOf>;
  /** Files used as images in a type kb stores only as attachments. */
  asAttachment: Set<string>;
  existingBySlug: Map<string, PageRecord>;
  siteVariables: Record<string, string>;
  /** mode=mirror: the live pages under the prefix, which the upload may no longer hold. */
  mirrored: PageRecord[];
}

/**
 * One import, from the uploaded files to its report: unpacking under one budget, conversion,
 * the plan, then either the dry run's comparison or all pages and media in ONE transaction,
 * with the `import.finished` event (a dry run records none).
 * Strict unless skipInvalid. Reports progress per phase and stops at its next step once its
 * signal is aborted (inside the transaction: rolled back).
 */
export class ImportRun {
  readonly report: ImportReport;
  private readonly budget: ImportBudget;
  private readonly tick = pacer();

  constructor(
    private readonly deps: ImportDeps,
    private readonly upload: ImportUpload,
    private readonly actor: AuthUser,
    private readonly hooks: RunHooks = {},
    /** The import job that runs it (POST /api/import with async=true), named in its event. */
    private readonly jobId?: string,
  ) {
    this.budget = new ImportBudget(deps.config.import.maxBytes, deps.config.import.maxEntries);
    this.report = emptyReport(upload.options);
  }

  get options() {
    return this.upload.options;
  }

  async execute(): Promise<ImportReport> {
    const received = this.upload.receivedBytes;
    this.progress('receiving', received, received);
    const entries = await this.unpack();
    const conversion = await this.convert(entries);
    // The documents are text now; only the files they may reference (conversion.assets)
    // keep their bytes, so the raw entries can be collected during the writes.
    entries.length = 0;
    const plan = await this.plan(conversion);
    if (this.options.dryRun) await this.compare(plan);
    else await this.write(plan);
    return finishReport(this.report);
  }

  /** Reports where the run is, and stops it here when it was cancelled. */
  progress(phase: ImportPhase, done: number, total: number): void {
    this.checkCancelled();
    this.hooks.onProgress?.({ phase, done, total } satisfies ImportProgress);
  }

  private checkCancelled(): void {
    if (this.hooks.signal?.aborted) throw new ImportCancelled();
  }

  private async unpack(): Promise<SourceEntry[]> {
    const { files } = this.upload;
    const entries: SourceEntry[] = [];
    const problems: FieldProblem[] = [];
    this.progress('unpacking', 0, files.length);
    for (const [index, file] of files.entries()) {
      const expanded = await expandUploads([file], this.budget);
      entries.push(...expanded.entries);
      problems.push(...expanded.problems);
      this.progress('unpacking', index + 1, files.length);
    }
    if (problems.length > 0)
      throw new FieldProblems(problems, 'Some files were refused; nothing was imported.');
    return entries;
  }

  private async convert(entries: SourceEntry[]): Promise<ConversionResult> {
    const { options } = this;
    const total = entries.length;
    this.progress('converting', 0, total);
    const conversion = await convertSources(options.format, entries, {
      prefix: options.prefix,
      pageMaxBytes: this.deps.config.pages.maxBytes,
      cleanConfluence: options.cleanConfluence,
      includeBlogPosts: options.includeBlogPosts,
      jiraBaseUrl: options.jiraBaseUrl,
      onProgress: (done) => this.progress('converting', Math.min(done, total), total),
    });
    this.progress('converting', total, total);
    if (conversion.documents.length === 0 && conversion.invalid.length === 0)
      throw new FieldProblems(noDocumentProblems(options.format, entries));
    return conversion;
  }

  /** Site variables, invalid documents, references, media kinds and the existing pages. */
  private async plan(conversion: ConversionResult): Promise<RunPlan> {
    const siteVariables = this.acceptedSiteVariables(conversion);
    const report = this.report;
    const index = await ReferenceIndex.build(conversion.documents, conversion.assets);
    const references = await planReferences(conversion.documents, index);
    // A kb archive lists its media with their kinds; all of them are restored.
    for (const [path, kind] of conversion.keepAssets ?? []) {
      if (conversion.assets.has(path)) references.assets.set(path, kind);
    }
    report.ignored = ignoredFiles(conversion, references.assets);
    report.macros = [...(conversion.macros ?? [])]
      .map(([name, use]) => ({ name, count: use.count, conversion: use.conversion }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const asAttachment = RunMedia.demoteUnservableImages(conversion, references.assets);
    const slugs = new Set([
      ...references.maybeExisting,
      ...conversion.documents.map((d) => d.slug),
    ]);
    const existing = await this.deps.pages.findLiveBySlugs([...slugs].filter(isPlausibleSlug));
    const mirrored =
      this.options.mode === 'mirror'
        ? await this.deps.pages.findLiveUnder(this.options.prefix)
        : [];
    return {
      mirrored,
      conversion,
      index,
      assets: references.assets,
      asAttachment,
      existingBySlug: new Map(existing.map((p) => [p.slug, p])),
      siteVariables,
    };
  }

  /**
   * A kb archive's site-wide variables: restored by administrators only, invalid ones like
   * invalid documents. Refuses the import when documents are invalid and skipInvalid is off.
   */
  private acceptedSiteVariables(conversion: ConversionResult): Record<string, string> {
    let siteVariables = this.actor.role === 'admin' ? (conversion.siteVariables ?? {}) : {};
    const invalid = [...conversion.invalid];
    const siteProblems = variableProblems(siteVariables, 'siteVariables');
    if (siteProblems.length > 0) {
      for (const bad of siteProblems)
        invalid.push({
          path: MANIFEST_PATH,
          code: bad.code,
          message: `"${MANIFEST_PATH}" ${bad.field}: ${bad.message}`,
        });
      siteVariables = {};
    }
    if (invalid.length > 0 && !this.options.skipInvalid) {
      throw new FieldProblems(
        invalid.map((bad) => ({
          field: `files[${bad.path}]`,
          code: bad.code,
          message: bad.message,
        })),
        INVALID_DOCUMENTS,
      );
    }
    this.report.siteVariables = Object.keys(siteVariables).sort();
    this.report.skipped = invalid.map((bad) => ({
      path: bad.path,
      code: bad.code,
      reason: bad.message,
    }));
    return siteVariables;
  }

  /** The dry run: what each document would do, media reused where the same file exists. */
  private async compare(plan: RunPlan): Promise<void> {
    const media = new RunMedia(this, plan, this.deps.media);
    const urls = await media.planWithoutWriting();
    const context = this.rewriteContext(plan, true, (path) => urls.get(path) ?? path);
    const documents = plan.conversion.documents;
    const archiveSlugs = new Set(documents.filter((d) => d.metadata).map((d) => d.slug));
    this.progress('writing pages', 0, documents.length);
    for (const [done, doc] of documents.entries()) {
      await this.tick();
      this.progress('writing pages', done, documents.length);
      const content = rewriteDocument(doc, plan.index, context);
      const isNew = !plan.existingBySlug.has(doc.slug);
      this.record(doc, isNew ? 'created' : await this.predict(doc, content, archiveSlugs));
    }
    this.report.binned = this.toBin(plan).map((page) => page.slug);
    this.progress('writing pages', documents.length, documents.length);
  }

  /**
   * The write's own comparison (title, content and metadata: PageWriterService.predictImported) for
   * a document whose slug is a live page. A document the page rules would refuse here (e.g. a
   * deprecated target that only this import creates) is predicted as replaced.
   */
  private async predict(
    doc: ImportDocument,
    content: string,
    archiveSlugs: Set<string>,
  ): Promise<ImportedPageOutcome['outcome']> {
    const page = await importedPage(
      this.deps.users,
      doc,
      content,
      false,
      this.options.prefix,
      archiveSlugs,
    );
    try {
      return await this.deps.writer.predictImported(page, this.actor);
    } catch (error) {
      if (error instanceof FieldProblems) return 'replaced';
      throw error;
    }
  }

  private record(doc: ImportDocument, outcome: ImportedPageOutcome['outcome']): void {
    this.report[outcome].push(doc.slug);
    this.report.pages.push({ path: doc.sourcePath, slug: doc.slug, outcome });
  }

  /**
   * mode=mirror: the pages under the prefix that the upload no longer holds. A page whose file
   * was skipped as invalid (skipInvalid) is still in the upload, so it stays.
   */
  private toBin(plan: RunPlan): PageRecord[] {
    if (plan.mirrored.length === 0) return [];
    const held = new Set(plan.conversion.documents.map((doc) => doc.slug));
    for (const skipped of this.report.skipped) {
      const slug = slugFromPath(dropExtension(skipped.path));
      if (slug) held.add(`${this.options.prefix}/${slug}`);
    }
    return plan.mirrored.filter((page) => !held.has(page.slug));
  }

  /** Media, pages and site variables in one transaction; media files removed on rollback. */
  private async write(plan: RunPlan): Promise<void> {
    const media = new RunMedia(this, plan, this.deps.media);
    let binned: PageRecord[] = [];
    // The report is filled as the pages and media are written; an attempt the database
    // retries (a deadlock on MariaDB) starts again from the report as it was before the first.
    const before = structuredClone(this.report);
    try {
      await this.deps.db.transaction(async (tx) => {
        Object.assign(this.report, structuredClone(before));
        const stored = await media.store(tx, this.actor);
        const context = this.rewriteContext(plan, false, (path) => stored.get(path)?.url);
        await this.writePages(tx, plan, context);
        // Mirror: what the upload no longer holds goes to the bin, in the same transaction.
        binned = this.toBin(plan);
        for (const page of binned) await this.deps.bin.binWithin(tx, page, this.actor);
        // Set or overwrite the archive's names, keep the other site variables.
        await this.deps.siteVariables.mergeWithin(tx, plan.siteVariables);
        // A kb archive's redirects, to the pages now live (administrators, like site variables).
        if (this.actor.role === 'admin' && plan.conversion.redirects?.length)
          await this.deps.redirects.restoreRedirectsWithin(
            tx,
            plan.conversion.redirects.map((r) => ({
              from: this.prefixed(r.from),
              to: this.prefixed(r.to),
            })),
            this.actor,
          );
        // A kb archive's page templates (replacing those of the same name).
        if (plan.conversion.templates?.length)
          await this.deps.templates.restoreWithin(tx, plan.conversion.templates);
        // A kb archive's comments, onto the pages it wrote (administrators, like redirects).
        if (this.actor.role === 'admin' && plan.conversion.comments?.size)
          await this.restoreComments(tx, plan.conversion.comments);
        this.report.binned = binned.map((page) => page.slug);
        // The event commits with the pages it counts (or neither does).
        await this.deps.outbox.record(tx, IMPORT_FINISHED, {
          userId: this.actor.id,
          format: this.report.format,
          dryRun: false,
          counts: { ...finishReport(this.report).counts },
          ...(this.jobId ? { jobId: this.jobId } : {}),
        });
        // The last moment a cancel can still undo everything.
        this.checkCancelled();
      });
    } catch (error) {
      await media.removeWritten();
      // Two imports (or an import and an editor) creating the same slug at once: the loser
      // rolls back whole and may simply retry.
      if (isUniqueViolation(error)) {
        throw new ConflictProblem(
          'import_conflict',
          'Another request wrote some of these pages at the same time; nothing was imported. Try again.',
        );
      }
      throw error;
    }
    this.deps.bin.announceBinned(binned, this.actor);
  }

  /** Each archived page's comments replace those of the page now at its (prefixed) slug. */
  private async restoreComments(tx: Tx, comments: Map<string, ArchiveComment[]>): Promise<void> {
    const written = new Set([
      ...this.report.created,
      ...this.report.replaced,
      ...this.report.unchanged,
    ]);
    const slugs = [...comments.keys()]
      .map((slug) => this.prefixed(slug))
      .filter((s) => written.has(s));
    const pages = new Map(
      (await this.deps.pages.findLiveBySlugs(slugs, tx)).map((page) => [page.slug, page]),
    );
    for (const [slug, list] of comments) {
      const page = pages.get(this.prefixed(slug));
      if (!page) continue;
      this.deps.db.heartbeat();
      await this.tick();
      await this.deps.comments.restore(tx, page.id, page.slug, list);
    }
  }

  /** A slug of the archive under the import's target prefix. */
  private prefixed(slug: string): string {
    return this.options.prefix ? `${this.options.prefix}/${slug}` : slug;
  }

  private async writePages(
    tx: Tx,
    plan: RunPlan,
    context: ReturnType<ImportRun['rewriteContext']>,
  ): Promise<void> {
    const documents = plan.conversion.documents;
    const refused: FieldProblem[] = [];
    const archiveSlugs = new Set(documents.filter((d) => d.metadata).map((d) => d.slug));
    // A deprecated page may name another page of the archive as its target: targets first.
    const ordered = [
      ...documents.filter((d) => !d.metadata?.deprecatedTarget),
      ...documents.filter((d) => d.metadata?.deprecatedTarget),
    ];
    this.progress('writing pages', 0, ordered.length);
    for (const [done, doc] of ordered.entries()) {
      // Yields between slices; writes queued behind this transaction are told it is moving.
      this.deps.db.heartbeat();
      await this.tick();
      this.progress('writing pages', done, ordered.length);
      const content = rewriteDocument(doc, plan.index, context);
      const isNew = !plan.existingBySlug.has(doc.slug);
      const page = await importedPage(
        this.deps.users,
        doc,
        content,
        isNew,
        this.options.prefix,
        archiveSlugs,
      );
      try {
        this.record(doc, await this.deps.writer.upsertImported(tx, page, this.actor));
      } catch (error) {
        // The page rules refuse a document before writing anything of it: reported like
        // any invalid document (strict: the whole import rolls back).
        if (!(error instanceof FieldProblems)) throw error;
        refused.push(refusal(doc, error));
      }
    }
    this.progress('writing pages', ordered.length, ordered.length);
    if (refused.length > 0 && !this.options.skipInvalid)
      throw new FieldProblems(refused, INVALID_DOCUMENTS);
    for (const bad of refused)
      this.report.skipped.push({
        path: bad.field.slice(6, -1),
        code: bad.code,
        reason: bad.message,
      });
  }

  private rewriteContext(
    plan: RunPlan,
    dryRun: boolean,
    assetUrl: (path: string) => string | undefined,
  ) {
    const seen = new Set<string>();
    const report = this.report;
    return {
      assetUrl,
      existingSlugs: new Set(plan.existingBySlug.keys()),
      dryRun,
      unresolved: (doc: ImportDocument, target: string, kind: 'link' | 'image') => {
        const key = `${kind}\n${doc.sourcePath}\n${target}`;
        if (seen.has(key)) return;
        seen.add(key);
        (kind === 'image' ? report.unresolvedImages : report.unresolvedLinks).push({
          path: doc.sourcePath,
          target,
        });
      },
    };
  }
}

function refusal(doc: ImportDocument, error: FieldProblems): FieldProblem {
  const reason = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return {
    field: `files[${doc.sourcePath}]`,
    code: error.errors[0]?.code ?? 'invalid_page',
    message: `"${doc.sourcePath}" ${reason}`,
  };
}

function isPlausibleSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= 255;
}
