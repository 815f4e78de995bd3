// The form-field handling of scripts/pdf-service.js (plain CommonJS, so required directly).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pdfOptions, readOptions } = require('../../../scripts/pdf-service.js') as {
  pdfOptions: (fields: Record<string, string>) => Record<string, unknown>;
  readOptions: (env: Record<string, string>) => Record<string, unknown>;
};

describe('scripts/pdf-service.js form fields', () => {
  it("uses Gotenberg's defaults: Letter, 0.39 in margins, no background, no outline", () => {
    expect(pdfOptions({})).toEqual({
      width: '8.5in',
      height: '11in',
      margin: { top: '0.39in', bottom: '0.39in', left: '0.39in', right: '0.39in' },
      printBackground: false,
      preferCSSPageSize: false,
      outline: false,
      tagged: false,
      landscape: false,
      scale: 1,
    });
  });

  it('reads inches or explicit units and Go-style booleans', () => {
    expect(
      pdfOptions({
        paperWidth: '8.27',
        paperHeight: '297mm',
        marginTop: '2cm',
        marginBottom: '.5',
        marginLeft: '72pt',
        marginRight: '96px',
        printBackground: 'True',
        preferCssPageSize: '1',
        generateDocumentOutline: 't',
        landscape: 'false',
        scale: '0.8',
      }),
    ).toEqual({
      width: '8.27in',
      height: '297mm',
      margin: { top: '2cm', bottom: '0.5in', left: '72pt', right: '96px' },
      printBackground: true,
      preferCSSPageSize: true,
      outline: true,
      tagged: false,
      landscape: false,
      scale: 0.8,
    });
  });

  it.each([
    ['paperWidth', 'abc'],
    ['paperHeight', '-1'],
    ['marginTop', '1 inch'],
    ['paperWidth', '5000'],
    ['printBackground', 'yes'],
    ['scale', '3'],
  ])('refuses %s=%s with a 400', (name, value) => {
    expect(() => pdfOptions({ [name]: value })).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('reads its environment with defaults and refuses bad numbers', () => {
    expect(readOptions({})).toMatchObject({
      port: 3001,
      host: '127.0.0.1',
      chromiumPath: '/usr/bin/chromium',
      concurrency: 2,
      queue: 8,
    });
    expect(
      readOptions({ PORT: '0', CHROMIUM_PATH: '/opt/chrome', PDF_SERVICE_CONCURRENCY: '4' }),
    ).toMatchObject({ port: 0, chromiumPath: '/opt/chrome', concurrency: 4 });
    expect(() => readOptions({ PDF_SERVICE_CONCURRENCY: '0' })).toThrow(/PDF_SERVICE_CONCURRENCY/);
  });
});
