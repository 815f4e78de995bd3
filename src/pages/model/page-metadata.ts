import {
  METADATA_KEYS,
  MetadataKey,
  metadataName,
  PAGE_COLUMNS,
  PageMetadata,
  PageRecord,
} from './page-columns';

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

type OwnerForm = 'id' | 'name' | 'name and id';
type Converter = (page: Partial<PageMetadata>, owner: string | null) => Record<string, unknown>;
const converters = new WeakMap<readonly MetadataKey[], Partial<Record<OwnerForm, Converter>>>();

/**
 * The JSON form of these metadata fields, in their order, with the owner as its id, its
 * username, or both: one object literal compiled per (fields, owner form) from PAGE_COLUMNS
 * (constants only, never input), as fast as writing each member by hand — it runs for every
 * page read and every list item.
 */
function converter(keys: readonly MetadataKey[], owner: OwnerForm): Converter {
  let forKeys = converters.get(keys);
  if (!forKeys) converters.set(keys, (forKeys = {}));
  let convert = forKeys[owner];
  if (!convert) {
    const members = keys.flatMap((key) => {
      const value = `p[${JSON.stringify(key)}]`;
      if (key === 'ownerId') {
        const name = '"owner": o';
        return owner === 'id'
          ? [`"ownerId": ${value}`]
          : owner === 'name'
            ? [name]
            : [name, `"ownerId": ${value}`];
      }
      const json =
        PAGE_COLUMNS[key].kind === 'datetime'
          ? `${value} instanceof Date ? ${value}.toISOString() : ${value}`
          : value;
      return [`${JSON.stringify(metadataName(key))}: ${json}`];
    });
    convert = new Function('p', 'o', `return { ${members.join(', ')} };`) as Converter;
    forKeys[owner] = convert;
  }
  return convert;
}

/**
 * The metadata of a page (or of a page state with its group names) as JSON, as revisions store
 * it; with `keys`, only those fields.
 */
export function metadataToJson(
  page: Partial<PageMetadata>,
  keys: readonly MetadataKey[] = METADATA_KEYS,
): RevisionMetadata {
  return converter(keys, 'id')(page, null) as RevisionMetadata;
}

/**
 * The metadata as a read answers it: the owner's username in the owner id's place. With
 * `keys` (a list item's), only those fields, so the result holds fewer members than its type.
 */
export function publicMetadata(
  page: Partial<PageMetadata>,
  owner: string | null,
  keys: readonly MetadataKey[] = METADATA_KEYS,
): PublicMetadata {
  return converter(keys, 'name')(page, owner) as PublicMetadata;
}

/** The metadata as an archive lists it: the owner's username, then the owner's id. */
export function archiveMetadata(
  page: PageMetadata,
  owner: string | null,
): PublicMetadata & Pick<RevisionMetadata, 'ownerId'> {
  return converter(METADATA_KEYS, 'name and id')(page, owner) as PublicMetadata &
    Pick<RevisionMetadata, 'ownerId'>;
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
