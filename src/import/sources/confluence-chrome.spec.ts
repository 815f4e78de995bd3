import type { ImportDocument } from '../import.types';
import { cleanConfluencePage } from './markdown-cleanup';
import { stripSpacePrefixes } from './titles';

/** Confluence chrome in Markdown converted from HTML exports, in the shapes converters write it. */
describe('cleanConfluencePage', () => {
  it("pandoc's markdown: wrapped breadcrumbs in spans, the title element with attributes, a wrapped metadata line", () => {
    const page = cleanConfluencePage(
      [
        '1.  <span>[Handbook](index.html)</span>',
        '2.  <span>[The Complete Guide to the\n    Build](The-Complete-Guide_31429526.html)</span>',
        '',
        '<span id="title-text"> Handbook : Build Guide </span> {#title-heading .pagetitle}',
        '=================================================================',
        '',
        'Created by <span class="author"> Dominika Kurek</span>, last modified on',
        'Feb 23, 2017',
        '',
        'Body.',
        '',
        'Usage {#BuildGuide-Usage}',
        '-----',
      ].join('\n'),
    );
    expect(page).toEqual({
      markdown:
        '\n<span id="title-text"> Handbook : Build Guide </span>\n=================================================================\n\n\nBody.\n\nUsage\n-----',
      confluenceTitle: true,
    });
  });

  it('old exports: "This page last changed on … by" wrapped, in its pagesubheading block', () => {
    const page = cleanConfluencePage(
      [
        '# Handbook : Release Notes',
        '',
        '<div class="pagesubheading">',
        '',
        'This page last changed on Oct 04, 2012 by',
        '<font color="#0050B2">ada</font>.',
        '',
        '</div>',
        '',
        'This page last changed on Oct 04, 2012 by ada.',
        '',
        'Notes.',
      ].join('\n'),
    );
    expect(page).toEqual({
      markdown: '# Handbook : Release Notes\n\n\n\nNotes.',
      confluenceTitle: true,
    });
  });

  it('emoticons become emoji (file names, alt text, classes, pandoc attributes, any host); other icons go', () => {
    const { markdown } = cleanConfluencePage(
      [
        '# T',
        '',
        'a ![(tick)](images/icons/emoticons/check.svg){.emoticon .emoticon-tick} b',
        '![](images/icons/emoticons/information.gif){width="16" height="16"} **Note**',
        'c <img src="images/icons/emoticons/smile.svg" class="emoticon emoticon-smile" data-emoticon-name="smile" alt="(smile)" /> d',
        'e ![(warning)](https://wiki.example.com/s/en_GB/7901/abc/_/images/icons/emoticons/warning.svg) f',
        'g ![(mystery)](images/icons/emoticons/mystery.png) h',
        '![Home\nPage](images/icons/contenttypes/home_page_16.png) Welcome',
        '<img src="images/icons/bullet_blue.gif" width="8" height="8" /> [a.csv](attachments/1/2.csv)',
        '```',
        '![](images/icons/emoticons/check.svg) in code',
        '```',
      ].join('\n'),
    );
    expect(markdown).toBe(
      [
        '# T',
        '',
        'a ✅ b',
        'ℹ️ **Note**',
        'c 🙂 d',
        'e ⚠️ f',
        'g h',
        'Welcome',
        '[a.csv](attachments/1/2.csv)',
        '```',
        '![](images/icons/emoticons/check.svg) in code',
        '```',
      ].join('\n'),
    );
  });

  it('avatars go, with the user link left empty around them', () => {
    const { markdown } = cleanConfluencePage(
      [
        '# T',
        '',
        '[<img src="images/icons/profilepics/default.svg" class="userLogo logo" title="admin" />](/display/~admin) Ada',
        '[![User icon: ada](download/attachments/65537/user-avatar){.userLogo .logo}](/display/~ada) Grace',
        '<a class="confluence-userlink" href=""><img class="userLogo logo" src="https://wiki.example.com/aa-avatar/42" alt=""></a> Alan',
        '![a picture](attachments/1/3.png)',
      ].join('\n'),
    );
    expect(markdown).toBe('# T\n\nAda\nGrace\nAlan\n![a picture](attachments/1/3.png)');
  });

  it('document thumbnails become links to their files; the attachments macro block goes', () => {
    const { markdown } = cleanConfluencePage(
      [
        '# T',
        '',
        'Spec: [<img src="rest/documentConversion/latest/conversion/thumbnail/65700/1" height="250" />](/download/attachments/65601/Build%20Spec.pdf?version=1&modificationDate=1&api=v2)',
        '[![](rest/documentConversion/latest/conversion/thumbnail/65701/1)](/download/attachments/65601/notes.txt?version=1&api=v2)',
        '<td><a href="/download/attachments/65601/sheet.xlsx?version=1&amp;api=v2"><img src="rest/documentConversion/latest/conversion/thumbnail/65702/1" height="150" /></a></td>',
        '![](https://wiki.example.com/rest/documentConversion/latest/conversion/thumbnail/9/3?attachmentId=9)',
        '',
        '<div class="plugin_attachments_container">',
        '<div class="plugin_attachments_table_container">',
        '<table class="attachments aui"><tr><td><a href="/download/attachments/65601/notes.txt">notes.txt</a></td></tr></table>',
        '</div>',
        '</div>',
        '',
        '::: {.plugin_attachments_upload_container}',
        'Drag and drop to upload or browse for files',
        '::: {.drop-zone}',
        'Upload file',
        ':::',
        ':::',
        '',
        'After.',
      ].join('\n'),
    );
    expect(markdown).toBe(
      [
        '# T',
        '',
        'Spec: [Build Spec.pdf](<attachments/65601/65700.pdf>)',
        '[notes.txt](<attachments/65601/65701.txt>)',
        '<td><a href="attachments/65601/65702.xlsx">sheet.xlsx</a></td>',
        '',
        '',
        '',
        '',
        'After.',
      ].join('\n'),
    );
  });

  it('keeps a list of links after the title, and metadata-like text in the body', () => {
    const source = [
      '# Space : Page',
      '',
      'Intro.',
      '',
      '- [Child](Child_2.html)',
      '',
      'This page last changed on Oct 04, 2012 by ada.',
    ].join('\n');
    expect(cleanConfluencePage(source)).toEqual({ markdown: source, confluenceTitle: false });
  });
});

describe('stripSpacePrefixes', () => {
  const doc = (title: string, confluenceTitle?: 'certain' | 'possible'): ImportDocument => ({
    sourcePath: `${title}.md`,
    slug: title,
    title,
    content: '',
    baseDir: '',
    refKeys: [],
    confluenceTitle,
  });
  const titles = (docs: ImportDocument[]) => {
    stripSpacePrefixes(docs);
    return docs.map((d) => d.title);
  };

  it('Confluence-converted Markdown: by the title element, by two carriers, by the space home, alone', () => {
    expect(
      titles([
        doc('Eng : Build', 'certain'),
        doc('Eng : Ship', 'possible'),
        doc('Eng : Test', 'possible'),
        doc('Q&A : Billing', 'possible'),
        doc('Ops : Runbook', 'possible'),
        doc('Ops', 'possible'),
        doc('Lab : Bench', 'certain'),
        doc('Notes : Other', undefined),
        doc('Notes : More', undefined),
      ]),
    ).toEqual([
      'Build',
      'Ship',
      'Test',
      'Q&A : Billing',
      'Runbook',
      'Ops',
      'Bench',
      'Notes : Other',
      'Notes : More',
    ]);
    expect(titles([doc('Eng : Q&A : Billing', 'possible')])).toEqual(['Q&A : Billing']);
  });

  it('every page with the same prefix (any format) loses it once, never twice', () => {
    expect(titles([doc('Eng : Q&A : Billing', 'certain'), doc('Eng : Home', 'certain')])).toEqual([
      'Q&A : Billing',
      'Home',
    ]);
    expect(titles([doc('A : B'), doc('C : D')])).toEqual(['A : B', 'C : D']);
  });
});
