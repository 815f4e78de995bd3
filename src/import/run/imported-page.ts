import type { UsersService } from '../../auth/public-api';
import type { ImportedPage } from '../../pages/public-api';
import type { ImportDocument } from '../import.types';

/** What upsertImported receives for one document. */
export async function importedPage(
  users: UsersService,
  doc: ImportDocument,
  content: string,
  isNew: boolean,
  prefix: string,
  archiveSlugs: Set<string>,
): Promise<ImportedPage> {
  const base = { slug: doc.slug, title: doc.title, content };
  const meta = doc.metadata;
  if (!meta) {
    // Replacing keeps the page's own tags, properties and owner (PageWriterService.upsertImported).
    return {
      ...base,
      ...(isNew ? { tags: doc.tags, properties: scalarProperties(doc.properties) } : {}),
      ...(isNew && doc.ownerCandidates?.length
        ? { ownerId: await firstActiveUser(users, doc.ownerCandidates) }
        : {}),
      verified: true,
    };
  }
  // A kb archive restores everything its manifest says, on create and on replace, `verified`
  // included: a kb archive is a backup (other sources create verified pages, DESIGN: Import).
  // An owner who is not a user here leaves the default (a new page: the importer; a replaced
  // one: its owner); `null` in the manifest means nobody.
  const { owner: ownerName, deprecatedTarget, ...metadata } = meta;
  const owner = ownerName ? await users.findActiveByUsername(ownerName) : null;
  const ownerId = ownerName === null ? null : owner?.id;
  const target =
    deprecatedTarget && prefix && archiveSlugs.has(`${prefix}/${deprecatedTarget}`)
      ? `${prefix}/${deprecatedTarget}`
      : deprecatedTarget;
  return {
    ...base,
    ...metadata,
    ownerId,
    deprecatedTarget: target,
    ...(doc.summary ? { summary: doc.summary } : {}),
  };
}

/**
 * The first of the usernames that is an active kb user (Confluence authors); undefined when
 * none is, so the page gets the default owner (the importer).
 */
async function firstActiveUser(
  users: UsersService,
  usernames: string[],
): Promise<string | undefined> {
  for (const username of usernames) {
    const user = await users.findActiveByUsername(username);
    if (user) return user.id;
  }
  return undefined;
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
