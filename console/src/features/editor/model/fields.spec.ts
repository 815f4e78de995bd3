import type { Page } from '../../../api/types';
import { bodyOf, emptyFields, fieldGroup, fieldsOf } from './fields';

const page: Page = {
  slug: 'runbooks/deploy',
  title: 'Deploy',
  content: 'Deploy to {{env}}.',
  icon: '🚀',
  language: 'en-GB',
  tags: ['ops', 'deploy'],
  lifecycle: 'published',
  owner: 'ada',
  reviewIntervalDays: 90,
  nextReviewAt: '2026-02-20T10:00:00.000Z',
  groups: ['ops'],
  deprecatedTarget: null,
  properties: { team: 'platform', tier: 1, public: false, note: null },
  variables: { env: 'production' },
  verified: true,
  revision: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  updatedBy: 'grace',
  html: '<p>Deploy to production.</p>',
  backlinks: [],
};

describe('editor form fields', () => {
  it('round-trips a page unchanged, property types and the review time included', () => {
    expect(bodyOf(fieldsOf(page))).toEqual({
      slug: 'runbooks/deploy',
      title: 'Deploy',
      content: 'Deploy to {{env}}.',
      icon: '🚀',
      language: 'en-GB',
      tags: ['ops', 'deploy'],
      lifecycle: 'published',
      owner: 'ada',
      reviewIntervalDays: 90,
      nextReviewAt: '2026-02-20T10:00:00.000Z',
      groups: ['ops'],
      deprecatedTarget: null,
      verified: true,
      properties: { team: 'platform', tier: 1, public: false, note: null },
      variables: { env: 'production' },
      summary: null,
    });
  });

  it('turns edits into the API shape', () => {
    const fields = {
      ...fieldsOf(page),
      tags: ' a, ,B ',
      icon: '  ',
      reviewIntervalDays: '',
      nextReviewDate: '2027-03-01',
      properties: [
        { name: 'tier', value: '2', original: 1 },
        { name: ' ', value: 'ignored' },
      ],
      variables: [{ name: 'env', value: 'staging' }],
    };
    expect(bodyOf(fields)).toMatchObject({
      tags: ['a', 'B'],
      icon: null,
      reviewIntervalDays: null,
      nextReviewAt: '2027-03-01T00:00:00.000Z',
      properties: { tier: '2' },
      variables: { env: 'staging' },
    });
  });

  it('starts a new page empty and groups field problems by section', () => {
    expect(bodyOf(emptyFields('a/b'))).toMatchObject({
      slug: 'a/b',
      title: '',
      tags: [],
      owner: null,
    });
    expect(fieldGroup('variables.customer')).toBe('variables');
    expect(fieldGroup('tags.2')).toBe('tags');
    expect(fieldGroup('title')).toBe('title');
  });
});
