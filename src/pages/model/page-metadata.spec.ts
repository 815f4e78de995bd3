import { archiveMetadata, metadataFromJson, metadataToJson, publicMetadata } from './page-metadata';
import { sameState, stateColumns, stateOf } from './page-state';
import { METADATA_KEYS, PageMetadata, PageRecord } from './page-columns';

const metadata: PageMetadata = {
  icon: '🚀',
  language: 'en',
  tags: ['ops'],
  lifecycle: 'published',
  ownerId: 'u1',
  reviewIntervalDays: 30,
  nextReviewAt: new Date('2026-02-20T10:00:00.000Z'),
  groupNames: ['ops'],
  deprecatedTarget: null,
  properties: { tier: 1 },
  variables: { env: 'prod' },
  verified: true,
};

describe('page metadata (derived from PAGE_COLUMNS)', () => {
  it('lists every metadata field in the order revisions, reads and archives show them', () => {
    expect(METADATA_KEYS).toEqual(Object.keys(metadata));
    const json = metadataToJson(metadata);
    expect(Object.keys(json)).toEqual([
      'icon',
      'language',
      'tags',
      'lifecycle',
      'ownerId',
      'reviewIntervalDays',
      'nextReviewAt',
      'groups',
      'deprecatedTarget',
      'properties',
      'variables',
      'verified',
    ]);
    expect(json.nextReviewAt).toBe('2026-02-20T10:00:00.000Z');
    expect(json.groups).toEqual(['ops']);
    expect(metadataFromJson(json)).toEqual(metadata);
  });

  it('puts the owner username in the owner id place (and the id after it for archives)', () => {
    const read = publicMetadata(metadata, 'ada');
    expect(Object.keys(read).slice(3, 6)).toEqual(['lifecycle', 'owner', 'reviewIntervalDays']);
    expect(read).not.toHaveProperty('ownerId');
    expect(read.nextReviewAt).toBe('2026-02-20T10:00:00.000Z');
    const archived = archiveMetadata(metadata, 'ada');
    expect(Object.keys(archived).slice(4, 6)).toEqual(['owner', 'ownerId']);
    expect([archived.owner, archived.ownerId]).toEqual(['ada', 'u1']);
    expect(publicMetadata(metadata, null, ['icon', 'ownerId', 'verified'])).toEqual({
      icon: '🚀',
      owner: null,
      verified: true,
    });
  });

  it('turns a stored page into a state and back into its columns', () => {
    const page = { slug: 'a/b', title: 'T', content: 'c', ...metadata } as PageRecord;
    const state = stateOf(page, [{ id: 'g1', name: 'ops' }]);
    expect(state).not.toHaveProperty('groupNames');
    expect(stateColumns(state)).toEqual({
      slug: 'a/b',
      liveSlug: 'a/b',
      title: 'T',
      content: 'c',
      ...metadata,
    });
    const reordered = { ...state, verified: state.verified, icon: state.icon };
    expect(sameState(state, reordered)).toBe(true);
    expect(sameState(state, { ...state, groups: [{ id: 'g2', name: 'dev' }] })).toBe(false);
    expect(sameState(state, { ...state, nextReviewAt: null })).toBe(false);
  });
});
