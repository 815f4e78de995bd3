import {
  METADATA_KEYS,
  MetadataKey,
  metadataName,
  PAGE_COLUMNS,
  PageMetadata,
  PageRecord,
} from './store/page-columns';

type Columns = typeof PAGE_COLUMNS;

/** The JSON name of a metadata field (`groupNames` → `groups`). */
type NameOf<K extends MetadataKey> = Columns[K] extends { metadata: infer N extends string }
  ? N
  : K;
/** Dates travel as ISO 8601 strings. */
type JsonOf<T> = T extends Date ? string : T;

/**
 * A page's metadata as JSON documents carry it — revisions (`page_revisions.metadata`),
 * archives, kb-archive imports: groups by name, dates as ISO strings, in PAGE_COLUMNS order.
 */
export type RevisionMetadata = {
  [K in MetadataKey as NameOf<K>]: JsonOf<PageRecord[K]>;
};

type PublicName<K extends MetadataKey> = K extends 'ownerId' ? 'owner' : NameOf<K>;

/** Metadata fields `K` as a read answers them: the owner's username in place of the owner's id. */
export type PublicMetadataOf<K extends MetadataKey> = {
  [P in K as PublicName<P>]: P extends 'ownerId' ? string | null : JsonOf<PageRecord[P]>;
};
export type PublicMetadata = PublicMetadataOf<MetadataKey>;

/**
 * The metadata of a page (or of a page state with its group names) as JSON; with `keys`, only
 * those fields (a list item's), so the result holds fewer members than its type says.
 */
export function metadataToJson(
  page: Partial<PageMetadata>,
  keys: readonly MetadataKey[] = METADATA_KEYS,
): RevisionMetadata {
  const json: Record<string, unknown> = {};
  for (const key of keys) {
    const value = page[key];
    json[metadataName(key)] = value instanceof Date ? value.toISOString() : value;
  }
  return json as RevisionMetadata;
}

/** The stored form of JSON metadata (ISO strings back to Dates). */
export function metadataFromJson(json: RevisionMetadata): PageMetadata {
  const page: Record<string, unknown> = {};
  const source = json as Record<string, unknown>;
  for (const key of METADATA_KEYS) {
    const value = source[metadataName(key)];
    page[key] =
      PAGE_COLUMNS[key].kind === 'datetime' && typeof value === 'string' ? new Date(value) : value;
  }
  return page as PageMetadata;
}

/** The JSON metadata with the owner's username in the owner id's place, keys in their order. */
export function withOwnerName(metadata: RevisionMetadata, owner: string | null): PublicMetadata;
/** ... and the id right after the username (archives list both). */
export function withOwnerName(
  metadata: RevisionMetadata,
  owner: string | null,
  keepId: true,
): PublicMetadata & Pick<RevisionMetadata, 'ownerId'>;
export function withOwnerName(
  metadata: RevisionMetadata,
  owner: string | null,
  keepId = false,
): PublicMetadata {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key !== 'ownerId') out[key] = value;
    else {
      out.owner = owner;
      if (keepId) out.ownerId = value;
    }
  }
  return out as PublicMetadata;
}
