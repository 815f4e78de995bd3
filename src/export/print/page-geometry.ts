/**
 * The printed page, in one place: the print stylesheet's `@page` rule and the form fields sent
 * to the HTML-to-PDF service are both built from it, so preview, print and PDF agree.
 */
export const PAGE_GEOMETRY = {
  cssSize: 'A4',
  widthInches: 8.27,
  heightInches: 11.69,
  /** 20 mm on every side. */
  marginMm: 20,
} as const;

export const MARGIN_INCHES = Math.round((PAGE_GEOMETRY.marginMm / 25.4) * 1000) / 1000;
