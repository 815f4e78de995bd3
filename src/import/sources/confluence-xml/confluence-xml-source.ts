import { posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { MacroUse, SourceEntry } from '../../import.types';
import { pacer } from '../../pace';
import { slugifySegment } from '../../slugs';
import { tidyContent } from '../markdown-title';
import { dirOf, SourceCollector } from '../source-context';
import { EntitiesFormatError, readEntities } from './entities-reader';
import {
  AttachmentRecord,
  collect,
  ContentRecord,
  emptyModel,
  ExportModel,
  KEPT_PROPERTIES,
  skipReason,
  spaceKeyOf,
} from './export-model';
import { storageToMarkdown } from './storage-format';
import { ExportPages, pageAddress } from './page-links';

/** Longest page body (storage XHTML) read from the export. */
const MAX_BODY_CHARS = 16 * 1024 * 1024;
/** Virtual archive folder the pages of an XML export are addressed by (`confluence-pages/<id>`). */
const PAGE_KEYS = 'confluence-pages';

export function isEntitiesXml(path: string): boolean {
  return posix.basename(path).toLowerCase() === 'entities.xml';
}

/** A page body as stored: `2` is the storage format (XHTML), anything else old wiki markup. */
interface PageBody {
  text: string;
  bodyType: string;
}

/** One export read: what converting each of its pages needs. */
interface ReadExport {
  entities: SourceEntry;
  /** The export's folder, and that folder with a trailing slash ('' at the top). */
  root: string;
  base: string;
  model: ExportModel;
  bodies: Map<string, PageBody>;
  /** Current attachments by page id, then file name: the path each is stored at. */
  attachments: Map<string, Map<string, string>>;
  slugs: Map<string, string>;
  /** The imported pages by id and title, for links between pages. */
  pages: ExportPages;
  /** Several spaces: slugs and labels carry the space key. */
  multiSpace: boolean;
  macros: Map<string, MacroUse>;
  jiraBaseUrl?: string;
}

/**
 * Confluence's XML space export: `entities.xml` (read in two streaming passes — first the
 * small records of pages, spaces, users, labels and attachments, then only the bodies of the
 * current pages) and `attachments/<pageId>/<attachmentId>/<version>`. Each current page becomes
 * a document at its parent chain of title slugs, with its labels as tags, its creator (or last
 * modifier) as the owner candidate and its dates as properties; its storage-format body is
 * converted (storage-format.ts) and every macro met is counted for the report.
 */
export async function convertConfluenceXml(
  entities: SourceEntry,
  files: Map<string, SourceEntry>,
  out: SourceCollector,
  options: { includeBlogPosts: boolean; jiraBaseUrl?: string },
): Promise<void> {
  const tick = pacer();
  const model = await readModel(entities, tick, out);
  if (!model) return;
  const root = dirOf(entities.path);
  const base = root ? `${root}/` : '';
  const pages = selectPages(model, entities, files.get(`${base}exportDescriptor.properties`), {
    includeBlogPosts: options.includeBlogPosts,
    out,
  });
  const selected = new Map(pages.map((p) => [p.id, p]));
  const bodies = await readBodies(entities, model, selected, tick);
  const read: ReadExport = {
    entities,
    root,
    base,
    model,
    bodies,
    attachments: attachmentFiles(model, selected, files, base, out),
    slugs: pageSlugs(pages, model),
    pages: new ExportPages(model, selected),
    multiSpace: new Set(pages.map((p) => p.spaceId)).size > 1,
    macros: new Map(),
    jiraBaseUrl: options.jiraBaseUrl,
  };
  for (const page of pages) {
    await tick();
    addPage(page, read, out);
  }
  for (const [name, use] of read.macros) {
    const known = out.macros.get(name);
    if (known) known.count += use.count;
    else out.macros.set(name, use);
  }
}

/** First pass: the small records; undefined (reported) when the file is not well-formed XML. */
async function readModel(
  entities: SourceEntry,
  tick: () => Promise<void>,
  out: SourceCollector,
): Promise<ExportModel | undefined> {
  const model = emptyModel();
  try {
    await readEntities(entities.data, (object) => collect(model, object), {
      keep: (type, property) => KEPT_PROPERTIES[type]?.has(property) ?? false,
      tick,
    });
    return model;
  } catch (error) {
    if (!(error instanceof EntitiesFormatError)) throw error;
    out.reject(
      entities.path,
      'confluence_invalid_export',
      `"${entities.path}" is not well-formed XML: ${error.message}.`,
    );
    return undefined;
  }
}

/** The pages to import; what is left out is counted in the report, against entities.xml. */
function selectPages(
  model: ExportModel,
  entities: SourceEntry,
  descriptor: SourceEntry | undefined,
  { includeBlogPosts, out }: { includeBlogPosts: boolean; out: SourceCollector },
): ContentRecord[] {
  if (descriptor)
    out.notPages.set(descriptor.path, 'The export descriptor of the Confluence XML export.');
  const skipped = new Map<string, number>();
  const pages: ContentRecord[] = [];
  for (const content of model.contents.values()) {
    const reason = skipReason(content, includeBlogPosts);
    if (reason) skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    else pages.push(content);
  }
  if (skipped.size > 0) {
    out.notPages.set(
      entities.path,
      `Not imported from the export: ${[...skipped].map(([why, n]) => `${n} ${why}${n === 1 ? '' : 's'}`).join(', ')}${skipped.has('blog post') ? ' (send includeBlogPosts=true to import blog posts)' : ''}.`,
    );
    out.assets.set(entities.path, entities);
  }
  return pages;
}

/** Second pass: the bodies of the selected pages only (the storage format one when a page has several). */
async function readBodies(
  entities: SourceEntry,
  model: ExportModel,
  selected: Map<string, ContentRecord>,
  tick: () => Promise<void>,
): Promise<Map<string, PageBody>> {
  const bodyOwner = new Map<string, string>();
  for (const [bodyId, body] of model.bodies) {
    if (selected.has(body.contentId) && (body.bodyType === '2' || !bodyOwner.has(body.contentId)))
      bodyOwner.set(bodyId, body.contentId);
  }
  const bodies = new Map<string, PageBody>();
  await readEntities(
    entities.data,
    (object) => {
      const owner = bodyOwner.get(object.id);
      if (object.type === 'BodyContent' && owner)
        bodies.set(owner, {
          text: object.values.get('body') ?? '',
          bodyType: model.bodies.get(object.id)?.bodyType ?? '2',
        });
    },
    {
      keep: (type, property) => type === 'BodyContent' && property === 'body',
      maxValueChars: MAX_BODY_CHARS,
      tick,
    },
  );
  return bodies;
}

function addPage(page: ContentRecord, read: ReadExport, out: SourceCollector): void {
  const { model } = read;
  const spaceKey = spaceKeyOf(page, model);
  const used = new Set<string>();
  const markdown = bodyMarkdown(page, spaceKey, used, read) + unusedAttachments(page, used, read);
  const label = read.multiSpace ? `${spaceKey}:${page.title}` : page.title;
  out.add({
    sourcePath: `${read.entities.path}#${label}`,
    slug: read.slugs.get(page.id),
    title: page.title,
    content: tidyContent(markdown),
    tags: tagsOf(page, model),
    properties: propertiesOf(page, spaceKey, model),
    ownerCandidates: [
      userName(page.creatorKey, page.creatorName, model),
      userName(page.modifierKey, page.modifierName, model),
    ].filter((name): name is string => !!name),
    baseDir: read.root,
    refKeys: [`${read.base}${PAGE_KEYS}/${page.id}`],
  });
}

/** The page's body as Markdown; the names of its own attachments it links to go into `used`. */
function bodyMarkdown(
  page: ContentRecord,
  spaceKey: string,
  used: Set<string>,
  read: ReadExport,
): string {
  const body = read.bodies.get(page.id);
  if (body === undefined) return '';
  if (body.bodyType !== '2' && body.bodyType !== '')
    return `> [!NOTE]\n> This page is in Confluence's old wiki markup, which kb does not convert; it is kept as text.\n\n\`\`\`\n${body.text}\n\`\`\``;
  return storageToMarkdown(body.text, {
    page: (ref) => {
      const id = read.pages.find(ref, spaceKey);
      const target = id ? read.model.contents.get(id) : undefined;
      return target ? { href: `${PAGE_KEYS}/${id}`, title: target.title } : undefined;
    },
    address: (href) => {
      const named = pageAddress(href);
      const id = named && read.pages.find(named.ref, spaceKey);
      return id ? `${PAGE_KEYS}/${id}${named.fragment}` : undefined;
    },
    attachment: (name, owner) => {
      const ownerId = owner.title ? read.pages.find(owner, spaceKey) : page.id;
      const path = ownerId ? read.attachments.get(ownerId)?.get(name) : undefined;
      if (path && ownerId === page.id) used.add(name);
      return path
        ? relativeTo(read.base, path)
        : `attachments/${page.id}/${encodeURIComponent(name)}`;
    },
    user: (user) => userText(user, read.model),
    // Headings get GitHub ids; an anchor names a heading (or an anchor macro).
    anchor: (name) => GithubSlugger.slug(name),
    jiraBaseUrl: read.jiraBaseUrl,
    macros: read.macros,
  });
}

/** The page's attachments its body does not link to, listed under it so none is lost. */
function unusedAttachments(page: ContentRecord, used: Set<string>, read: ReadExport): string {
  const own = read.attachments.get(page.id) ?? new Map<string, string>();
  const unused = [...own].filter(([name]) => !used.has(name));
  if (!unused.length) return '';
  return `\n\n## Attachments\n\n${unused
    .map(
      ([name, path]) =>
        `- [${name.replace(/([[\]\\])/g, '\\$1')}](<${relativeTo(read.base, path)}>)`,
    )
    .join('\n')}`;
}

function relativeTo(base: string, path: string): string {
  return encodeURI(path.startsWith(base) ? path.slice(base.length) : path);
}

/** Title-slug chain through the parents (blog posts under `blog/`), the space key in front when the export holds several spaces. */
function pageSlugs(pages: ContentRecord[], model: ExportModel): Map<string, string> {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const multiSpace = new Set(pages.map((p) => p.spaceId)).size > 1;
  const slugs = new Map<string, string>();
  const slugOf = (page: ContentRecord, seen: Set<string>): string => {
    const known = slugs.get(page.id);
    if (known) return known;
    const own = slugifySegment(page.title) || `page-${page.id}`;
    const parent = page.parentId ? byId.get(page.parentId) : undefined;
    let slug: string;
    if (parent && !seen.has(parent.id)) {
      seen.add(page.id);
      slug = `${slugOf(parent, seen)}/${own}`;
    } else {
      const space = multiSpace ? slugifySegment(spaceKeyOf(page, model)) : '';
      slug = [space, page.type === 'BlogPost' ? 'blog' : '', own].filter(Boolean).join('/');
    }
    slugs.set(page.id, slug);
    return slug;
  };
  for (const page of pages) slugOf(page, new Set());
  return slugs;
}

/**
 * The current attachments of the imported pages, by page and file name, stored under
 * `attachments/<pageId>/<attachmentId>/<file name>` with the bytes of their latest version
 * (`attachments/<pageId>/<attachmentId>/<version>`, else the highest version present). The raw
 * version files themselves are not offered as files of the import.
 */
function attachmentFiles(
  model: ExportModel,
  selected: Map<string, ContentRecord>,
  files: Map<string, SourceEntry>,
  base: string,
  out: SourceCollector,
): Map<string, Map<string, string>> {
  const versions = new Map<string, { version: number; path: string }>();
  for (const path of files.keys()) {
    const match = new RegExp(`^${escapeRegExp(base)}attachments/(\\d+)/(\\d+)/(\\d+)$`).exec(path);
    if (!match) continue;
    out.assets.delete(path);
    const key = `${match[1]}/${match[2]}`;
    const version = Number(match[3]);
    if ((versions.get(key)?.version ?? -1) < version) versions.set(key, { version, path });
  }
  const byPage = new Map<string, Map<string, string>>();
  const current: AttachmentRecord[] = model.attachments.filter(
    (a) => !a.originalId && a.status === 'current' && a.containerId && selected.has(a.containerId),
  );
  for (const attachment of current) {
    const folder = `${base}attachments/${attachment.containerId}/${attachment.id}`;
    const path = files.has(`${folder}/${attachment.version}`)
      ? `${folder}/${attachment.version}`
      : versions.get(`${attachment.containerId}/${attachment.id}`)?.path;
    if (!path) continue;
    const name = attachment.name.replace(/[/\\]/g, '_') || attachment.id;
    const virtual = `${folder}/${name}`;
    out.assets.set(virtual, { ...files.get(path)!, path: virtual });
    const list = byPage.get(attachment.containerId!) ?? new Map<string, string>();
    list.set(attachment.name, virtual);
    byPage.set(attachment.containerId!, list);
  }
  return byPage;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function userName(
  key: string | undefined,
  name: string | undefined,
  model: ExportModel,
): string | undefined {
  return (key && model.users.get(key)) || name || undefined;
}

function userText(user: { getAttribute(name: string): string | null }, model: ExportModel): string {
  const key = user.getAttribute('ri:userkey') ?? user.getAttribute('ri:account-id') ?? undefined;
  const name = userName(key, user.getAttribute('ri:username') ?? undefined, model);
  return name ? `@${name}` : '@user';
}

function tagsOf(page: ContentRecord, model: ExportModel): string[] | undefined {
  const tags = (model.labellings.get(page.id) ?? [])
    .map((id) => model.labels.get(id))
    .filter((label) => label && label.name && label.namespace !== 'my')
    .map((label) => label!.name);
  return tags.length ? [...new Set(tags)] : undefined;
}

function propertiesOf(
  page: ContentRecord,
  spaceKey: string,
  model: ExportModel,
): Record<string, unknown> {
  const properties: Record<string, unknown> = { confluencePageId: page.id };
  if (spaceKey) properties.confluenceSpace = spaceKey;
  const creator = userName(page.creatorKey, page.creatorName, model);
  const modifier = userName(page.modifierKey, page.modifierName, model);
  if (creator) properties.confluenceCreator = creator;
  if (modifier) properties.confluenceLastModifier = modifier;
  if (page.created) properties.createdAt = page.created;
  if (page.modified) properties.updatedAt = page.modified;
  if (page.version) properties.confluenceVersion = page.version;
  return properties;
}
