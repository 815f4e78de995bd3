import { archiveFileName, markdownLinkTarget, mediaArchivePath } from '../archive/archive-paths';
import { contentDisposition, safeFileStem, slugFileStem } from '../http/download';
import {
  findMediaReferences,
  relativeArchivePath,
  rewriteMediaReferences,
} from './media-references';
import { pageMarkdown } from './page-markdown';

const A = '11111111-2222-4333-8444-555555555555';
const B = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('pageMarkdown', () => {
  it('puts "# Title" first, keeps the content and {{variables}}, ends with one newline', () => {
    expect(pageMarkdown('Intro', 'Hello {{name}}\r\n\r\nBye  \n\n')).toBe(
      '# Intro\n\nHello {{name}}\n\nBye\n',
    );
    expect(pageMarkdown('Empty', '')).toBe('# Empty\n');
    expect(pageMarkdown('Two\nlines', 'x')).toBe('# Two lines\n\nx\n');
  });
});

describe('media references', () => {
  const md = `![a](/api/images/${A}/content) [f](/api/attachments/${B}/content "t") <img src="/api/images/${A.toUpperCase()}/content"> https://x.example/api/images/${B}/content /api/images/${B}/contents`;

  it('finds root-relative image and attachment references once each, in order', () => {
    expect(findMediaReferences(md)).toEqual([
      { kind: 'image', id: A },
      { kind: 'attachment', id: B },
    ]);
  });

  it('rewrites only the mapped references', () => {
    expect(
      rewriteMediaReferences(md, (ref) =>
        ref.kind === 'image' ? `images/${ref.id}.png` : undefined,
      ),
    ).toBe(
      `![a](images/${A}.png) [f](/api/attachments/${B}/content "t") <img src="images/${A}.png"> https://x.example/api/images/${B}/content /api/images/${B}/contents`,
    );
  });

  it('computes archive-relative paths between files', () => {
    expect(relativeArchivePath('a.md', 'media/x/y.png')).toBe('media/x/y.png');
    expect(relativeArchivePath('guide/intro.md', 'media/x/y.png')).toBe('../media/x/y.png');
    expect(relativeArchivePath('a/b/c/d.md', 'media/x/y.png')).toBe('../../../media/x/y.png');
    expect(relativeArchivePath('media/q.md', 'media/x/y.png')).toBe('x/y.png');
  });
});

describe('archive and download names', () => {
  it('keeps archive media names exact unless they would read as a page or a path', () => {
    expect(mediaArchivePath(A, 'logo.png')).toBe(`media/${A}/logo.png`);
    expect(mediaArchivePath(A, 'chart final (v2) #3.png')).toBe(
      `media/${A}/chart final (v2) #3.png`,
    );
    expect(mediaArchivePath(A, 'notes.MD')).toBe(`media/${A}/notes.MD.bin`);
    expect(mediaArchivePath(A, '..')).toBe(`media/${A}/file`);
    expect(mediaArchivePath(A, 'a/b\\c')).toBe(`media/${A}/a_b_c`);
  });

  it('percent-encodes what a Markdown link target would misread', () => {
    expect(markdownLinkTarget('../media/x/chart final (v2) #3?.png')).toBe(
      '../media/x/chart%20final%20%28v2%29%20%233%3F.png',
    );
    expect(markdownLinkTarget('media/x/100%.png')).toBe('media/x/100%25.png');
    expect(markdownLinkTarget('media/x/Übersicht.pdf')).toBe('media/x/Übersicht.pdf');
  });

  it('makes single-page image names readable and safe, never a Markdown page name', () => {
    expect(archiveFileName('My Photo (final).PNG', 'image')).toBe('My_Photo_final_.PNG');
    expect(archiveFileName('../../etc/passwd', 'file')).toBe('etc_passwd');
    expect(archiveFileName('notes.md', 'file')).toBe('notes.md.bin');
    expect(archiveFileName('', 'file')).toBe('file');
    expect(archiveFileName('Übersicht.pdf', 'file')).toBe('Übersicht.pdf');
  });

  it('builds Content-Disposition with an ASCII fallback and a UTF-8 name', () => {
    expect(slugFileStem('handbuch/übersicht')).toBe('übersicht');
    expect(safeFileStem('..;"evil"\r\nname')).toBe('evil_name');
    expect(safeFileStem('...')).toBe('page');
    expect(contentDisposition('attachment', 'übersicht.md')).toBe(
      `attachment; filename="_bersicht.md"; filename*=UTF-8''%C3%BCbersicht.md`,
    );
    expect(contentDisposition('inline', `a"b;c%d'.pdf`)).toBe(
      `inline; filename="a_b_c_d'.pdf"; filename*=UTF-8''a%22b%3Bc%25d%27.pdf`,
    );
  });
});
