import { sanitizeSvg } from './svg-sanitiser';

describe('the diagram SVG sanitiser', () => {
  const clean = (svg: string) => sanitizeSvg(svg, 'kb-d0-', 'Graphviz diagram');

  it('keeps the drawing, drops the prolog and comments, labels the svg', () => {
    const svg =
      '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">' +
      '<!-- a comment --><svg width="62pt" height="44pt" viewBox="0.00 0.00 62.00 44.00" ' +
      'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
      '<g id="node1" class="node"><title>a&amp;b</title>' +
      '<ellipse fill="none" stroke="black" cx="27" cy="-18" rx="27" ry="18"/>' +
      '<text xml:space="preserve" text-anchor="middle" x="27" y="-13.8" font-family="Times,serif">A &lt;b&gt;</text>' +
      '</g></svg>';
    expect(clean(svg)).toBe(
      '<svg width="62pt" height="44pt" viewBox="0.00 0.00 62.00 44.00" role="img" aria-label="Graphviz diagram">' +
        '<g id="kb-d0-node1" class="node"><title>a&amp;b</title>' +
        '<ellipse fill="none" stroke="black" cx="27" cy="-18" rx="27" ry="18" />' +
        '<text text-anchor="middle" x="27" y="-13.8" font-family="Times,serif">A &lt;b&gt;</text>' +
        '</g></svg>',
    );
  });

  it('removes scripts, styles, foreign content, images, animation and event handlers', () => {
    const out = clean(
      '<svg onload="alert(1)"><script>alert(2)</script><style>@import url(http://x/a.css)</style>' +
        '<foreignObject><iframe src="http://x"></iframe></foreignObject>' +
        '<image href="http://evil/x.png"/><image xlink:href="data:image/svg+xml,&lt;svg onload=alert(3)&gt;"/>' +
        '<animate attributeName="href" to="javascript:alert(4)"/><set attributeName="onclick" to="alert(5)"/>' +
        '<use href="http://x/sprite.svg#y"/><g onclick="alert(6)" onmouseover="alert(7)"><path d="M0,0"/></g></svg>',
    );
    expect(out).toBe(
      '<svg role="img" aria-label="Graphviz diagram"><g><path d="M0,0" /></g></svg>',
    );
  });

  it('keeps links only to fragments of the page, and url() only to its own ids', () => {
    const out = clean(
      '<svg><defs><linearGradient id="l_1"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<a xlink:href="javascript:alert(1)"><text>js</text></a>' +
        '<a href="https://evil.example/"><text>web</text></a>' +
        '<a href="//evil.example/"><text>relative</text></a>' +
        '<a xlink:href="#node1"><text>inside</text></a>' +
        '<polygon fill="url(#l_1)" stroke="url(http://evil/x)" points="1,2"/>' +
        '<rect style="fill:url(http://x)" fill="javascript:x" width="1" height="1"/>' +
        '<rect fill="&#106;avascript:x" stroke="u\\72l(http://x)" width="2" height="2"/></svg>',
    );
    expect(out).toBe(
      '<svg role="img" aria-label="Graphviz diagram"><defs><linearGradient id="kb-d0-l_1">' +
        '<stop offset="0" stop-color="red" /></linearGradient></defs>' +
        '<a><text>js</text></a><a><text>web</text></a><a><text>relative</text></a>' +
        '<a href="#node1"><text>inside</text></a>' +
        '<polygon fill="url(#kb-d0-l_1)" points="1,2" />' +
        '<rect width="1" height="1" /><rect width="2" height="2" /></svg>',
    );
    expect(out).not.toMatch(/http|javascript|style|xlink/);
  });

  it('answers nothing for input that holds no svg element', () => {
    expect(clean('<p>not a diagram</p>')).toBe('');
    expect(clean('')).toBe('');
  });
});
