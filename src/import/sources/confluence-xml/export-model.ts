import type { EntityObject } from './entities-reader';

/**
 * What the importer keeps of an `entities.xml` after the first pass: small records of the
 * objects it needs, no bodies. Pure data plus the rules that pick the current content.
 */
export interface ContentRecord {
  id: string;
  type: 'Page' | 'BlogPost';
  title: string;
  status: string;
  parentId?: string;
  spaceId?: string;
  position: number;
  creatorKey?: string;
  creatorName?: string;
  modifierKey?: string;
  modifierName?: string;
  created?: string;
  modified?: string;
  version?: string;
  /** Set on historical versions: the id of the current one. */
  originalId?: string;
}

export interface AttachmentRecord {
  id: string;
  name: string;
  version: string;
  containerId?: string;
  status: string;
  originalId?: string;
}

export interface ExportModel {
  contents: Map<string, ContentRecord>;
  /** BodyContent id → owning content id and body type (2 = storage format). */
  bodies: Map<string, { contentId: string; bodyType: string }>;
  attachments: AttachmentRecord[];
  spaces: Map<string, { key: string; name: string; homePageId?: string }>;
  /** ConfluenceUserImpl key → username. */
  users: Map<string, string>;
  labels: Map<string, { name: string; namespace: string }>;
  /** Content id → label ids. */
  labellings: Map<string, string[]>;
}

/** Scalar properties the first pass keeps, by object class (everything else is skipped). */
export const KEPT_PROPERTIES: Record<string, Set<string>> = {
  Page: new Set([
    'title',
    'contentStatus',
    'position',
    'creatorName',
    'lastModifierName',
    'creationDate',
    'lastModificationDate',
    'version',
    'originalVersionId',
  ]),
  BodyContent: new Set(['bodyType']),
  Attachment: new Set(['title', 'fileName', 'version', 'contentStatus', 'originalVersionId']),
  Space: new Set(['key', 'name']),
  ConfluenceUserImpl: new Set(['name', 'lowerName', 'username']),
  Label: new Set(['name', 'namespace']),
};
KEPT_PROPERTIES.BlogPost = KEPT_PROPERTIES.Page;

export function emptyModel(): ExportModel {
  return {
    contents: new Map(),
    bodies: new Map(),
    attachments: [],
    spaces: new Map(),
    users: new Map(),
    labels: new Map(),
    labellings: new Map(),
  };
}

function originalOf(object: EntityObject): string | undefined {
  return (
    object.refs.get('originalVersion') ||
    object.values.get('originalVersionId')?.trim() ||
    undefined
  );
}

/** Adds one object of the first pass to the model. */
export function collect(model: ExportModel, object: EntityObject): void {
  const v = object.values;
  const r = object.refs;
  switch (object.type) {
    case 'Page':
    case 'BlogPost':
      model.contents.set(object.id, {
        id: object.id,
        type: object.type,
        title: (v.get('title') ?? '').trim(),
        status: (v.get('contentStatus') ?? 'current').trim() || 'current',
        parentId: r.get('parent'),
        spaceId: r.get('space'),
        position: Number(v.get('position') ?? '') || 0,
        creatorKey: r.get('creator'),
        creatorName: v.get('creatorName')?.trim(),
        modifierKey: r.get('lastModifier'),
        modifierName: v.get('lastModifierName')?.trim(),
        created: v.get('creationDate')?.trim(),
        modified: v.get('lastModificationDate')?.trim(),
        version: v.get('version')?.trim(),
        originalId: originalOf(object),
      });
      break;
    case 'BodyContent': {
      const contentId = r.get('content');
      if (contentId)
        model.bodies.set(object.id, { contentId, bodyType: v.get('bodyType')?.trim() ?? '2' });
      break;
    }
    case 'Attachment':
      model.attachments.push({
        id: object.id,
        name: (v.get('title') ?? v.get('fileName') ?? '').trim(),
        version: (v.get('version') ?? '1').trim() || '1',
        containerId: r.get('containerContent') ?? r.get('content'),
        status: (v.get('contentStatus') ?? 'current').trim() || 'current',
        originalId: originalOf(object),
      });
      break;
    case 'Space':
      model.spaces.set(object.id, {
        key: (v.get('key') ?? '').trim(),
        name: (v.get('name') ?? '').trim(),
        homePageId: r.get('homePage'),
      });
      break;
    case 'ConfluenceUserImpl': {
      const name = v.get('name') ?? v.get('username') ?? v.get('lowerName');
      if (name) model.users.set(object.id, name.trim());
      break;
    }
    case 'Label':
      model.labels.set(object.id, {
        name: (v.get('name') ?? '').trim(),
        namespace: (v.get('namespace') ?? 'global').trim(),
      });
      break;
    case 'Labelling': {
      const content = r.get('content');
      const label = r.get('label');
      if (content && label)
        model.labellings.set(content, [...(model.labellings.get(content) ?? []), label]);
      break;
    }
  }
}

/** Why a page or blog post of the export is not imported, or undefined when it is. */
export function skipReason(
  content: ContentRecord,
  includeBlogPosts: boolean,
): 'historical version' | 'draft' | 'deleted page' | 'blog post' | undefined {
  if (content.originalId) return 'historical version';
  if (content.status === 'draft') return 'draft';
  if (content.status !== 'current') return 'deleted page';
  if (content.type === 'BlogPost' && !includeBlogPosts) return 'blog post';
  return undefined;
}

/** The space key of a page (empty when the export does not name its space). */
export function spaceKeyOf(page: ContentRecord, model: ExportModel): string {
  return (page.spaceId && model.spaces.get(page.spaceId)?.key) || '';
}
