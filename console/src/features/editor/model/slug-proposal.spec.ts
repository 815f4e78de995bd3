import { isPlausibleSlug, proposedSlug, slugSegmentOf, typedSlug } from './slug-proposal';

describe('slugs proposed from titles', () => {
  it('lowercases, turns spaces and punctuation into one dash and transliterates Latin diacritics', () => {
    expect(slugSegmentOf('Café menü – Größe')).toBe('cafe-menue-groesse');
    expect(slugSegmentOf('  Hello, World!  ')).toBe('hello-world');
    expect(slugSegmentOf('Łódź & Ærø: Crème brûlée')).toBe('lodz-aero-creme-brulee');
    expect(slugSegmentOf('Release 2.0 (beta)')).toBe('release-2-0-beta');
  });

  it('keeps other scripts as they are', () => {
    expect(slugSegmentOf('Über Ψυχή')).toBe('ueber-ψυχή');
    expect(slugSegmentOf('日本語 ページ')).toBe('日本語-ページ');
    expect(slugSegmentOf('हिन्दी पृष्ठ')).toBe('हिन्दी-पृष्ठ');
    expect(slugSegmentOf('Привет мир')).toBe('привет-мир');
  });

  it('proposes the slug under the folder the page is started from', () => {
    expect(proposedSlug('handbook/team', 'On-call rota')).toBe('handbook/team/on-call-rota');
    expect(proposedSlug('', 'Top level')).toBe('top-level');
    expect(proposedSlug('handbook', '')).toBe('handbook/');
  });

  it('turns typed spaces into dashes and tells a plausible slug from an unfinished one', () => {
    expect(typedSlug('my new page')).toBe('my-new-page');
    expect(isPlausibleSlug('handbook/über-uns')).toBe(true);
    expect(isPlausibleSlug('handbook/')).toBe(false);
    expect(isPlausibleSlug('a b')).toBe(false);
    expect(isPlausibleSlug('a/../b')).toBe(false);
    expect(isPlausibleSlug('')).toBe(false);
  });
});
