import sanitizeHtml from 'sanitize-html';

/**
 * A diagram's SVG as a page may carry it: an allow-list of drawing elements and presentation
 * attributes, nothing else. No script, style, foreignObject, image, event handler or
 * animation; a link only to a fragment of the page (`#heading`); `url(…)` only as `url(#id)`.
 * Ids get the diagram's prefix (two diagrams on a page, or a heading, never share one), and
 * the `url(#id)` references to them follow.
 */

const SVG_TAGS = [
  'svg',
  'g',
  'a',
  'title',
  'desc',
  'defs',
  'path',
  'polygon',
  'polyline',
  'line',
  'rect',
  'circle',
  'ellipse',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'marker',
];

/** Elements with no content (written `<path … />`: valid in an HTML document's SVG). */
const EMPTY_TAGS = ['path', 'polygon', 'polyline', 'line', 'rect', 'circle', 'ellipse', 'stop'];

const SVG_ATTRIBUTES = [
  'id',
  'class',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'transform',
  'points',
  'd',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'dx',
  'dy',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'clip-path',
  'text-anchor',
  'dominant-baseline',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-decoration',
  'baseline-shift',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'fx',
  'fy',
  'role',
  'aria-label',
  'href',
  'marker-start',
  'marker-mid',
  'marker-end',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'refX',
  'refY',
  'orient',
  'letter-spacing',
];

/** A reference to something inside the diagram: `url(#id)`. */
const FRAGMENT_URL = /^url\(\s*#([\w.:-]+)\s*\)$/i;
/** A link to a fragment of the diagram. */
const FRAGMENT_HREF = /^#([\w.:-]+)$/;

/**
 * A value that could reach outside the document or run something: any `url(` but a fragment
 * (checked first), a scheme, an expression, an escape that could hide one.
 */
const SUSPICIOUS = /url\s*\(|[a-z][\w+.-]*\s*:|expression\s*\(|\\|&#|@import/i;

function prefixedAttributes(
  attribs: Record<string, string>,
  prefix: string,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, raw] of Object.entries(attribs)) {
    const value = raw.trim();
    if (name === 'href' || name === 'xlink:href') {
      const fragment = FRAGMENT_HREF.exec(value);
      // Not prefixed: a diagram links to the page's headings (`URL="#deploy"` in DOT).
      if (fragment) kept.href = `#${fragment[1]}`;
      continue;
    }
    if (name === 'id') {
      if (/^[\w.:-]+$/.test(value)) kept.id = `${prefix}${value}`;
      continue;
    }
    const reference = FRAGMENT_URL.exec(value);
    if (reference) {
      kept[name] = `url(#${prefix}${reference[1]})`;
      continue;
    }
    // font-family names a font (a colon in a value is a scheme elsewhere, e.g. `javascript:`).
    if (SUSPICIOUS.test(value)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * The sanitised SVG (its `<svg>` element and what it holds, no prolog, comments or doctype),
 * ids prefixed with `idPrefix`, labelled for assistive technology with `label`; '' when the
 * input holds no `<svg>` element.
 */
export function sanitizeSvg(svg: string, idPrefix: string, label: string): string {
  const start = svg.search(/<svg[\s>]/);
  if (start < 0) return '';
  const clean = sanitizeHtml(svg.slice(start), {
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedClasses: { '*': ['graph', 'node', 'edge', 'cluster'] },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    allowedStyles: {},
    disallowedTagsMode: 'discard',
    // (Not `title`: in an SVG it is a node's tooltip, kept.)
    nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript'],
    selfClosing: EMPTY_TAGS,
    parser: { xmlMode: true },
    transformTags: {
      '*': (tagName, attribs) => ({
        tagName,
        attribs: prefixedAttributes(attribs, idPrefix),
      }),
      svg: (tagName, attribs) => ({
        tagName,
        attribs: {
          ...prefixedAttributes(attribs, idPrefix),
          role: 'img',
          'aria-label': label,
        },
      }),
    },
  });
  return clean.startsWith('<svg') ? clean.trim() : '';
}
