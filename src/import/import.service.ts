import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AuthUser } from '../common/auth/auth-user';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import { IMPORT_FINISHED, ImportFinishedEvent } from '../common/events/domain-events';
import { audit } from '../common/logging/audit';
import { ConflictProblem, FieldProblem, FieldProblems, Problem } from '../common/problems/problem';
import { UsersService } from '../auth/users.service';
import { MediaService } from '../media/media.service';
import type { ImportedPage } from '../pages/pages.types';
import { PagesService } from '../pages/pages.service';
import { SiteVariablesService } from '../pages/site-variables.service';
import { variableProblems } from '../pages/variables';
import { ImportBudget } from './import-budget';
import { ignoredFiles, noDocumentProblems } from './import-outcome';
import { pacer } from './pace';
import { IMPORT_FIELDS, parseImportOptions } from './import-options';
import { convertSources } from './import-formats';
import { emptyReport, finishReport } from './import.mapper';
import {
  ConversionResult,
  ImportDocument,
  ImportOptions,
  ImportReport,
  SourceEntry,
} from './import.types';
import { receiveMultipart } from './intake/multipart-intake';
import { MediaKindOf, planReferences, ReferenceIndex, rewriteDocument } from './reference-resolver';
import { MANIFEST_PATH } from './sources/kb-archive';
import { expandUploads } from './source-tree';

const STORED_AS_ATTACHMENT =
  'An image kb does not serve as an image (only PNG, JPEG, GIF and WebP): stored as an attachment, served as a download.';

/**
 * The image types the media rules accept, by their magic bytes (as the media service checks
 * them). Anything else referenced as an image is stored as an attachment instead.
 */
function isStorableImage(data: Buffer): boolean {
  const ascii = (start: number, end: number) => data.toString('latin1', start, end);
  return (
    (data.length >= 8 &&
      data.readUInt32BE(0) === 0x89504e47 &&
      data.readUInt32BE(4) === 0x0d0a1a0a) ||
    (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) ||
    (data.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) ||
    (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP')
  );
}

/** Files handed to the media service at once. */
const MEDIA_CONCURRENCY = 4;

const FILE_FIELDS = ['files', 'files[]', 'file'] as const;

interface StoredMedia {
  url: string;
  id: string;
  sha256: string;
}

/**
 * POST /api/import: multipart intake to temp files, archive expansion under one budget,
 * conversion, then all pages (and their media) in ONE transaction. Strict unless skipInvalid.
 */
@Injectable()
export class ImportService {
  private readonly logger = new Logger(ImportService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly pages: PagesService,
    private readonly siteVariables: SiteVariablesService,
    private readonly media: MediaService,
    private readonly users: UsersService,
    private readonly events: EventEmitter2,
  ) {}

  async importRequest(req: IncomingMessage, actor: AuthUser): Promise<ImportReport> {
    // Under the data folder (same disk as the media store); removed whatever happens.
    const tempRoot = join(this.config.dataDir, 'tmp');
    await mkdir(tempRoot, { recursive: true });
    const tempDir = await mkdtemp(join(tempRoot, 'import-'));
    try {
      const parts = await receiveMultipart(req, {
        maxBytes: this.config.importMaxBytes,
        tempDir,
        knownFields: IMPORT_FIELDS,
        fileFields: FILE_FIELDS,
        maxFiles: this.config.importMaxEntries,
      });
      const problems = [...parts.problems];
      const options = parseImportOptions(parts.fields, problems);
      if (parts.files.length === 0)
        problems.push({
          field: 'files',
          code: 'required',
          message: 'Send one or more files in the "files" field.',
        });
      if (!options || problems.length > 0) throw new FieldProblems(problems);

      const budget = new ImportBudget(this.config.importMaxBytes, this.config.importMaxEntries);
      const expanded = await expandUploads(parts.files, budget);
      if (expanded.problems.length > 0)
        throw new FieldProblems(
          expanded.problems,
          'Some files were refused; nothing was imported.',
        );
      const conversion = await convertSources(options.format, expanded.entries, {
        prefix: options.prefix,
        pageMaxBytes: this.config.pageMaxBytes,
        cleanConfluence: options.cleanConfluence,
        includeBlogPosts: options.includeBlogPosts,
        jiraBaseUrl: options.jiraBaseUrl,
      });
      if (conversion.documents.length === 0 && conversion.invalid.length === 0)
        throw new FieldProblems(noDocumentProblems(options.format, expanded.entries));
      // The documents are text now; only the files they may reference (conversion.assets)
      // keep their bytes, so the raw entries can be collected during the writes.
      expanded.entries.length = 0;
      return await this.importConverted(conversion, options, actor);
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  }

  /** Everything after conversion; public for tests and benchmarks that skip HTTP. */
  async importConverted(
    conversion: ConversionResult,
    options: ImportOptions,
    actor: AuthUser,
  ): Promise<ImportReport> {
    // A kb archive's site-wide variables: restored by administrators only (the route is
    // admin-only; importConverted is also called directly), invalid ones like invalid documents.
    let siteVariables = actor.role === 'admin' ? (conversion.siteVariables ?? {}) : {};
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
    if (invalid.length > 0 && !options.skipInvalid) {
      throw new FieldProblems(
        invalid.map((bad) => ({
          field: `files[${bad.path}]`,
          code: bad.code,
          message: bad.message,
        })),
        'Some documents are invalid; nothing was imported (send skipInvalid=true to import the rest).',
      );
    }
    if (conversion.documents.length === 0) {
      if (conversion.invalid.length === 0) {
        throw new FieldProblems([
          {
            field: 'files',
            code: 'no_documents',
            message: `The files hold no ${options.format} documents.`,
          },
        ]);
      }
    }
    const report = emptyReport(options);
    report.siteVariables = Object.keys(siteVariables).sort();
    report.skipped = invalid.map((bad) => ({
      path: bad.path,
      code: bad.code,
      reason: bad.message,
    }));

    const index = new ReferenceIndex(conversion.documents, conversion.assets);
    const plan = await planReferences(conversion.documents, index);
    // A kb archive lists its media with their kinds; all of them are restored.
    for (const [path, kind] of conversion.keepAssets ?? []) {
      if (conversion.assets.has(path)) plan.assets.set(path, kind);
    }
    report.ignored = ignoredFiles(conversion, plan.assets);
    report.macros = [...(conversion.macros ?? [])]
      .map(([name, use]) => ({ name, count: use.count, conversion: use.conversion }))
      .sort((a, b) => a.name.localeCompare(b.name));
    // Files used as images in a type kb does not store as images (SVG, BMP, TIFF…) are stored
    // as attachments, which are always served as a download, and referenced by that URL.
    const asAttachment = new Set<string>();
    for (const [path, kind] of plan.assets) {
      if (kind === 'image' && !isStorableImage(conversion.assets.get(path)!.data)) {
        plan.assets.set(path, 'attachment');
        asAttachment.add(path);
      }
    }
    const existing = await this.pages.findLiveBySlugs(
      [...new Set([...plan.maybeExisting, ...conversion.documents.map((d) => d.slug)])].filter(
        isPlausibleSlug,
      ),
    );
    const existingSlugs = new Set(existing.map((p) => p.slug));
    const existingBySlug = new Map(existing.map((p) => [p.slug, p]));

    const reusable = await this.reusableMedia(existing);
    if (options.dryRun) {
      const urls = new Map<string, string>();
      for (const [path, kind] of plan.assets) {
        const reuse = reusable.get(mediaKey(kind, conversion.assets.get(path)!.data));
        if (reuse) urls.set(path, reuse.url);
        const item = { path, id: reuse?.id ?? null, url: reuse?.url ?? null };
        (kind === 'image' ? report.images : report.attachments).push(item);
        if (asAttachment.has(path))
          report.storedAsAttachment.push({ ...item, reason: STORED_AS_ATTACHMENT });
      }
      const context = this.rewriteContext(
        report,
        existingSlugs,
        true,
        (path) => urls.get(path) ?? path,
      );
      const tick = pacer();
      for (const doc of conversion.documents) {
        await tick();
        const content = rewriteDocument(doc, index, context);
        const current = existingBySlug.get(doc.slug);
        if (!current) report.created.push(doc.slug);
        else if (current.title === doc.title && current.content === content)
          report.unchanged.push(doc.slug);
        else report.replaced.push(doc.slug);
      }
    } else {
      await this.write(
        conversion.documents,
        conversion,
        plan.assets,
        index,
        existingSlugs,
        report,
        actor,
        options,
        reusable,
        siteVariables,
        asAttachment,
      );
    }
    const finished = finishReport(report);
    audit('import.finished', {
      actorId: actor.id,
      target: `import:${options.format}`,
      prefix: options.prefix || null,
      dryRun: options.dryRun,
      counts: { ...finished.counts },
    });
    this.events.emit(IMPORT_FINISHED, {
      userId: actor.id,
      format: options.format,
      dryRun: options.dryRun,
      counts: { ...finished.counts },
    } satisfies ImportFinishedEvent);
    return finished;
  }

  private rewriteContext(
    report: ImportReport,
    existingSlugs: Set<string>,
    dryRun: boolean,
    assetUrl: (path: string) => string | undefined,
  ) {
    const seen = new Set<string>();
    return {
      assetUrl,
      existingSlugs,
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

  private async write(
    documents: ImportDocument[],
    conversion: ConversionResult,
    assets: Map<string, MediaKindOf>,
    index: ReferenceIndex,
    existingSlugs: Set<string>,
    report: ImportReport,
    actor: AuthUser,
    options: ImportOptions,
    reusable: Map<string, StoredMedia>,
    siteVariables: Record<string, string>,
    asAttachment: Set<string>,
  ): Promise<void> {
    const { skipInvalid, prefix } = options;
    const stored = new Map<string, StoredMedia>();
    const written: string[] = [];
    try {
      await this.db.transaction(async (tx) => {
        await this.storeAssets(
          tx,
          conversion,
          assets,
          reusable,
          actor,
          report,
          stored,
          written,
          asAttachment,
        );
        const context = this.rewriteContext(
          report,
          existingSlugs,
          false,
          (path) => stored.get(path)?.url,
        );
        const refused: FieldProblem[] = [];
        const archiveSlugs = new Set(documents.filter((d) => d.metadata).map((d) => d.slug));
        // A deprecated page may name another page of the archive as its target: targets first.
        const ordered = [
          ...documents.filter((d) => !d.metadata?.deprecatedTarget),
          ...documents.filter((d) => d.metadata?.deprecatedTarget),
        ];
        for (const doc of ordered) {
          const content = rewriteDocument(doc, index, context);
          const isNew = !existingSlugs.has(doc.slug);
          let outcome: 'created' | 'replaced' | 'unchanged';
          try {
            outcome = await this.pages.upsertImported(
              tx,
              await this.importedPage(doc, content, isNew, prefix, archiveSlugs),
              actor,
            );
          } catch (error) {
            // The page rules refuse a document before writing anything of it: reported like
            // any invalid document (strict: the whole import rolls back below).
            if (!(error instanceof FieldProblems)) throw error;
            const reason = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
            refused.push({
              field: `files[${doc.sourcePath}]`,
              code: error.errors[0]?.code ?? 'invalid_page',
              message: `"${doc.sourcePath}" ${reason}`,
            });
            continue;
          }
          report[outcome].push(doc.slug);
        }
        if (refused.length > 0 && !skipInvalid) {
          throw new FieldProblems(
            refused,
            'Some documents are invalid; nothing was imported (send skipInvalid=true to import the rest).',
          );
        }
        for (const bad of refused)
          report.skipped.push({
            path: bad.field.slice(6, -1),
            code: bad.code,
            reason: bad.message,
          });
        // Set or overwrite the archive's names, keep the other site variables.
        await this.siteVariables.mergeWithin(tx, siteVariables);
      });
    } catch (error) {
      await this.media.removeOrphanFiles(written).catch((cleanup: unknown) => {
        this.logger.error({
          msg: 'import rollback left media files behind',
          error: String(cleanup),
        });
      });
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
  }

  /** What upsertImported receives for one document. */
  private async importedPage(
    doc: ImportDocument,
    content: string,
    isNew: boolean,
    prefix: string,
    archiveSlugs: Set<string>,
  ): Promise<ImportedPage> {
    const base = { slug: doc.slug, title: doc.title, content };
    const meta = doc.metadata;
    if (!meta) {
      // Replacing keeps the page's own tags, properties and owner (CONTRACTS: upsertImported).
      return {
        ...base,
        ...(isNew ? { tags: doc.tags, properties: scalarProperties(doc.properties) } : {}),
        ...(isNew && doc.ownerCandidates?.length
          ? { ownerId: await this.firstActiveUser(doc.ownerCandidates) }
          : {}),
        verified: true,
      };
    }
    // A kb archive restores everything its manifest says, on create and on replace, `verified`
    // included: a kb archive is a backup (other sources create verified pages, DESIGN: Import).
    // An owner who is not a user here leaves the default (a new page: the importer; a replaced
    // one: its owner); `null` in the manifest means nobody.
    const { owner: ownerName, deprecatedTarget, ...metadata } = meta;
    const owner = ownerName ? await this.users.findActiveByUsername(ownerName) : null;
    const ownerId = ownerName === null ? null : owner?.id;
    const target =
      deprecatedTarget && prefix && archiveSlugs.has(`${prefix}/${deprecatedTarget}`)
        ? `${prefix}/${deprecatedTarget}`
        : deprecatedTarget;
    return { ...base, ...metadata, ownerId, deprecatedTarget: target };
  }

  /**
   * The first of the usernames that is an active kb user (Confluence authors); undefined when
   * none is, so the page gets the default owner (the importer).
   */
  private async firstActiveUser(usernames: string[]): Promise<string | undefined> {
    for (const username of usernames) {
      const user = await this.users.findActiveByUsername(username);
      if (user) return user.id;
    }
    return undefined;
  }

  /**
   * Media the pages about to be replaced already reference, by kind and sha256: importing the
   * same files again reuses them, so an unchanged re-import leaves the pages unchanged.
   */
  private async reusableMedia(existing: { content: string }[]): Promise<Map<string, StoredMedia>> {
    const ids = new Set<string>();
    for (const page of existing) {
      for (const match of page.content.matchAll(
        /\/api\/(?:images|attachments)\/([0-9a-f-]{36})\/content/g,
      ))
        ids.add(match[1]);
    }
    const reusable = new Map<string, StoredMedia>();
    for (const id of ids) {
      const media = await this.media.findById(id);
      if (media)
        reusable.set(`${media.kind}:${media.sha256}`, {
          id: media.id,
          url: media.url,
          sha256: media.sha256,
        });
    }
    return reusable;
  }

  /**
   * Stores the referenced files a few at a time (each is written to disk and hashed by the
   * media service); identical files the replaced pages already use are reused. Report entries
   * keep the archive order.
   */
  private async storeAssets(
    tx: Tx,
    conversion: ConversionResult,
    assets: Map<string, MediaKindOf>,
    reusable: Map<string, StoredMedia>,
    actor: AuthUser,
    report: ImportReport,
    stored: Map<string, StoredMedia>,
    written: string[],
    asAttachment: Set<string>,
  ): Promise<void> {
    const outcomes = new Map<string, StoredMedia | Problem>();
    const pending: [string, MediaKindOf][] = [];
    for (const [path, kind] of assets) {
      const reuse = reusable.get(mediaKey(kind, conversion.assets.get(path)!.data));
      if (reuse) outcomes.set(path, reuse);
      else pending.push([path, kind]);
    }
    for (let i = 0; i < pending.length; i += MEDIA_CONCURRENCY) {
      const batch = pending.slice(i, i + MEDIA_CONCURRENCY);
      // allSettled, not all: nothing may still be writing when the transaction rolls back.
      const results = await Promise.allSettled(
        batch.map(([path, kind]) =>
          this.storeAsset(tx, conversion.assets.get(path)!, path, kind, actor),
        ),
      );
      for (const result of results) {
        if (result.status === 'fulfilled' && !(result.value instanceof Problem))
          written.push(result.value.sha256);
      }
      for (const [index, result] of results.entries()) {
        if (result.status === 'rejected') throw result.reason;
        outcomes.set(batch[index][0], result.value);
      }
    }
    for (const [path, kind] of assets) {
      const outcome = outcomes.get(path)!;
      if (outcome instanceof Problem) {
        report.refusedFiles.push({ path, code: outcome.code, reason: outcome.detail });
        continue;
      }
      stored.set(path, outcome);
      const item = { path, id: outcome.id, url: outcome.url };
      (kind === 'image' ? report.images : report.attachments).push(item);
      if (asAttachment.has(path))
        report.storedAsAttachment.push({ ...item, reason: STORED_AS_ATTACHMENT });
    }
  }

  /** One file as media; a file the media rules refuse (type, size) comes back as the Problem. */
  private async storeAsset(
    tx: Tx,
    entry: SourceEntry,
    path: string,
    kind: MediaKindOf,
    actor: AuthUser,
  ): Promise<StoredMedia | Problem> {
    const name = path.split('/').pop() ?? path;
    try {
      const media = await this.media.storeFile(
        Readable.from([entry.data]),
        name,
        kind,
        actor.id,
        tx,
      );
      return { url: media.url, id: media.id, sha256: media.sha256 };
    } catch (error) {
      if (error instanceof Problem && error.status < 500) return error;
      throw error;
    }
  }
}

/** Page properties are scalars: lists become comma-separated text, objects JSON text. */
function scalarProperties(
  properties: Record<string, unknown> | undefined,
): Record<string, string | number | boolean | null> | undefined {
  if (!properties) return undefined;
  const result: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (
      value === null ||
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      result[key] = value;
    } else if (
      Array.isArray(value) &&
      value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    ) {
      result[key] = value.join(', ');
    } else {
      result[key] = JSON.stringify(value) ?? null;
    }
  }
  return result;
}

function mediaKey(kind: MediaKindOf, data: Buffer): string {
  return `${kind}:${createHash('sha256').update(data).digest('hex')}`;
}

function isPlausibleSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= 255;
}
