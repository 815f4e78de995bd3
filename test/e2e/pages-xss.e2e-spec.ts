import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/** Real-world XSS payloads, in raw HTML and in Markdown forms. */
export const XSS_PAYLOADS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"/>',
  '<img src=x oNeRrOr=alert`1`>',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="20">x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<math href="javascript:alert(1)">CLICK</math>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<div style="background-image:url(javascript:alert(1))">x</div>',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<base href="javascript:alert(1)//">',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<a href="x" title="a" onclick="alert(1)">y</a>',
  '<td colspan="1" onclick=alert(1)>cell</td>',
  '<p title="</p><script>alert(1)</script>">x</p>',
  '<!--><script>alert(1)</script>-->',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click](javascript&#58;alert(1))',
  '[click](%6A%61%76%61%73%63%72%69%70%74:alert(1))',
  '[click]( javascript:alert(1) )',
  '[click](<javascript:alert(1)>)',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click][ref]\n\n[ref]: javascript:alert(1)',
  '![img](javascript:alert(1))',
  '![img](x" onerror="alert(1))',
  '![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[a](https://ok.example "title\\" onmouseover=\\"alert(1)")',
  '<https://ok.example/"onmouseover="alert(1)>',
  '<javascript:alert(1)>',
  '```"><script>alert(1)</script>\ncode\n```',
  '# heading <img src=x onerror=alert(1)>',
  '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | <script>alert(1)</script> |',
  '- [x] <svg onload=alert(1)>',
  '{{evil}}',
];

// eslint-disable-next-line @typescript-eslint/no-require-imports
const domino = require('@mixmark-io/domino') as {
  createDocument(html: string): {
    body: { querySelectorAll(selector: string): ArrayLike<DomElement> };
  };
};
interface DomElement {
  tagName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
}

const FORBIDDEN_ELEMENTS = [
  'script',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'style',
  'link',
  'meta',
  'base',
  'form',
  'template',
  'frame',
  'frameset',
  'applet',
];
const URL_ATTRIBUTES = [
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'srcdoc',
  'poster',
  'background',
  'cite',
  'srcset',
];

/**
 * Parses the HTML as a browser would and checks every element: no script-capable element,
 * no event-handler attribute, no javascript:/vbscript:/data: URL (whitespace and control
 * characters removed first, as browsers do). Payload text shown as text is fine.
 */
export function assertSafe(html: string): void {
  expect(html.toLowerCase()).not.toContain('<script');
  const document = domino.createDocument(`<!doctype html><html><body>${html}</body></html>`);
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    expect(FORBIDDEN_ELEMENTS).not.toContain(element.tagName.toLowerCase());
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      expect(name.startsWith('on') ? name : 'ok').toBe('ok');
      if (URL_ATTRIBUTES.includes(name)) {
        // Browsers drop whitespace and control characters inside a URL scheme.
        // eslint-disable-next-line no-control-regex
        const url = attribute.value.replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase();
        expect(url).not.toMatch(/^(javascript|vbscript|data):/);
      }
      expect(attribute.value.toLowerCase().replace(/\s+/g, '')).not.toMatch(
        /^(javascript|vbscript):/,
      );
    }
  }
}

describe('pages: rendered HTML never carries script', () => {
  let t: TestApp;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp();
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t.close());

  it(`has at least 25 payloads (${XSS_PAYLOADS.length})`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(25);
  });

  it.each(XSS_PAYLOADS.map((payload, index) => [index, payload]))(
    'payload %i is neutralised on page reads and in preview',
    async (index, payload) => {
      const slug = `xss/p${index}`;
      await editor
        .post('/api/pages')
        .send({
          slug,
          title: `XSS ${index}`,
          content: `Before\n\n${payload}\n\nAfter`,
          variables: { evil: '<img src=x onerror=alert(1)><script>alert(2)</script>' },
        })
        .expect(201)
        .expect((r) => assertSafe(r.body.html));
      const read = await editor.get(`/api/pages/${slug}`).expect(200);
      assertSafe(read.body.html);
      expect(read.body.html).toContain('Before');
      const preview = await editor
        .post('/api/preview')
        .send({ content: payload, variables: { evil: '"><script>alert(1)</script>' } })
        .expect(200);
      assertSafe(preview.body.html);
    },
  );

  it('the checker itself recognises unsafe HTML', () => {
    for (const unsafe of [
      '<script>x</script>',
      '<img src=x onerror=alert(1)>',
      '<a href=" java\tscript:alert(1)">x</a>',
      '<a href="data:text/html,x">x</a>',
      '<iframe></iframe>',
      '<svg></svg>',
      '<object></object>',
      '<embed>',
    ]) {
      expect(() => assertSafe(unsafe)).toThrow();
    }
    expect(() => assertSafe('<p>[click](javascript:alert(1))</p>')).not.toThrow();
  });

  it('keeps the safe parts of a payload-laden document', async () => {
    const res = await editor
      .post('/api/preview')
      .send({
        content:
          '<a href="https://ok.example" onclick="alert(1)">ok</a> <img src="https://ok.example/a.png" onerror="x">',
      })
      .expect(200);
    expect(res.body.html).toBe(
      '<p><a href="https://ok.example">ok</a> <img src="https://ok.example/a.png" /></p>\n',
    );
  });
});
