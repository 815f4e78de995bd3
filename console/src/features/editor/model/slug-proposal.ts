/** The new-page form's slug, made from the title (editor only: not in the first-load bundle). */
/** Latin letters that do not decompose into a base letter and marks, and the German umlauts. */
const LATIN_FOLDS: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  å: 'a',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};

/**
 * A slug segment made from a title: lowercase, Latin diacritics transliterated (`Größe` →
 * `groesse`, `Café` → `cafe`), every run of spaces and punctuation one `-`; letters of other
 * scripts stay as they are (`Über Ψυχή` → `ueber-ψυχή`), as the slug rules allow any letter.
 */
export function slugSegmentOf(title: string): string {
  const lower = title.normalize('NFC').toLowerCase();
  const folded = lower.replace(/[äöüßæœøåłđðþıħ]/g, (c) => LATIN_FOLDS[c] ?? c);
  const plain = folded
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
  return plain
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/, '');
}

/** The slug proposed for a new page titled `title` in the folder `folder` ('' for the top). */
export function proposedSlug(folder: string, title: string): string {
  const segment = slugSegmentOf(title);
  const base = folder.replace(/^\/+|\/+$/g, '');
  if (!base) return segment;
  return segment ? `${base}/${segment}` : `${base}/`;
}

/** A slug as typed: whitespace becomes `-` (the slug rules refuse spaces). */
export function typedSlug(value: string): string {
  return value.replace(/\s+/g, '-');
}

/**
 * Whether a slug could be valid (the server's rules, docs/pages.md): the preview resolves
 * relative links against it only then, so an unfinished slug never breaks the preview.
 */
export function isPlausibleSlug(slug: string): boolean {
  if (!slug || slug.length > 255) return false;
  const segments = slug.split('/');
  return (
    segments.length <= 20 &&
    segments.every((s) => s !== '.' && s !== '..' && /^[\p{L}\p{M}\p{N}_.-]+$/u.test(s))
  );
}
