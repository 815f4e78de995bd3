import { createUser } from '../support/users';
import {
  count,
  MEDIA_URL,
  pageRow,
  postImport,
  readTree,
  zip,
  useImportApp,
} from '../support/import-helpers';

const UUID = '[0-9a-f-]{36}';
const HOME = 'operations-home';
const RUNBOOK = 'operations-home/deploy-runbook';
const ROLLBACK = 'operations-home/deploy-runbook/rollback-recovery';

/** Confluence's XML space export (entities.xml + attachments/) under format=confluence. */
describe('POST /api/import: Confluence XML space export', () => {
  const ctx = useImportApp();

  const exportZip = () => zip(readTree('confluence-xml'));
  const importExport = (fields: Record<string, string> = {}) =>
    postImport(ctx.admin, {
      format: 'confluence',
      files: [{ name: 'Confluence-space-export-OPS.xml.zip', data: exportZip() }],
      fields,
    });

  it('imports the current pages in their hierarchy, with labels, owner, dates and a macro report', async () => {
    await createUser(ctx.t, 'editor', { username: 'ada' });
    const res = await importExport().expect(200);
    expect([...res.body.created].sort()).toEqual([HOME, RUNBOOK, ROLLBACK]);
    expect(res.body.macros).toEqual([
      { name: 'children', count: 1, conversion: expect.stringMatching(/^dropped/) },
      { name: 'code', count: 2, conversion: 'fenced code block with its language (and title)' },
      { name: 'expand', count: 1, conversion: 'collapsible <details> section with its title' },
      { name: 'info', count: 1, conversion: 'callout (NOTE)' },
      { name: 'jira', count: 1, conversion: expect.stringContaining('jiraBaseUrl') },
      { name: 'noformat', count: 1, conversion: 'fenced code block' },
      { name: 'note', count: 1, conversion: 'callout (WARNING)' },
      { name: 'roadmap', count: 1, conversion: expect.stringContaining('not converted') },
      { name: 'status', count: 1, conversion: 'bold text' },
      { name: 'tip', count: 1, conversion: 'callout (TIP)' },
      { name: 'toc', count: 1, conversion: expect.stringMatching(/^dropped/) },
      { name: 'warning', count: 1, conversion: 'callout (CAUTION)' },
    ]);
    expect(res.body.counts.macros).toBe(12);
    expect(res.body.ignored).toEqual([
      {
        path: 'entities.xml',
        reason:
          'Not imported from the export: 1 historical version, 1 draft, 1 deleted page, 1 blog post (send includeBlogPosts=true to import blog posts).',
      },
      {
        path: 'exportDescriptor.properties',
        reason: 'The export descriptor of the Confluence XML export.',
      },
    ]);
    // The latest attachment versions are stored under their names; the page link to another
    // space is reported.
    expect(res.body.images).toEqual([
      {
        path: 'attachments/98306/98420/pipeline.png',
        id: expect.any(String),
        url: expect.stringMatching(MEDIA_URL),
      },
    ]);
    expect(res.body.attachments.map((a: { path: string }) => a.path).sort()).toEqual([
      'attachments/98306/98421/contacts.csv',
      'attachments/98307/98422/rollback checklist.pdf',
    ]);
    expect(res.body.unresolvedLinks).toEqual([
      { path: 'entities.xml#Deploy runbook', target: 'Capacity planning' },
    ]);

    const runbook = await ctx.admin.get(`/api/pages/${RUNBOOK}`).expect(200);
    expect(runbook.body).toMatchObject({
      title: 'Deploy runbook',
      tags: ['runbook', 'deploy'],
      owner: 'ada',
      verified: true,
      properties: {
        confluencePageId: '98306',
        confluenceSpace: 'OPS',
        confluenceCreator: 'ada',
        confluenceLastModifier: 'ada',
        createdAt: '2023-02-01 10:30:00.000',
        updatedAt: '2025-02-28 11:02:03.000',
        confluenceVersion: '7',
      },
    });
    // The creator (grace.former) has no kb account: the last modifier owns the page; with
    // neither a kb user, the importer does.
    expect((await ctx.admin.get(`/api/pages/${HOME}`).expect(200)).body.owner).toBe('ada');
    expect((await ctx.admin.get(`/api/pages/${ROLLBACK}`).expect(200)).body.owner).toBe(
      ctx.admin.user!.username,
    );
    expect(await count(ctx.t, 'pages')).toBe(3);
  });

  it('imports "include page", "excerpt include" and "excerpt" macros as kb includes', async () => {
    const tree = readTree('confluence-xml');
    const xml = tree['entities.xml'].toString('utf8');
    const includes =
      '<ac:structured-macro ac:name="include" ac:schema-version="1"><ac:parameter ac:name="">' +
      '<ac:link><ri:page ri:content-title="Deploy runbook" /></ac:link></ac:parameter></ac:structured-macro>' +
      '<ac:structured-macro ac:name="excerpt-include" ac:schema-version="1">' +
      '<ac:parameter ac:name="nopanel">true</ac:parameter><ac:parameter ac:name="">' +
      '<ac:link><ri:page ri:content-title="Rollback &amp; recovery" /></ac:link></ac:parameter></ac:structured-macro>' +
      '<ac:structured-macro ac:name="include" ac:schema-version="1"><ac:parameter ac:name="">' +
      '<ac:link><ri:page ri:content-title="Capacity planning" ri:space-key="ARCH" /></ac:link>' +
      '</ac:parameter></ac:structured-macro>';
    const changed = xml
      .replace('<h2>Start here</h2>', `${includes}<h2>Start here</h2>`)
      .replace(
        '<ol><li>Revert the tag.</li><li>Redeploy the previous build.</li></ol>',
        '<ac:structured-macro ac:name="excerpt" ac:schema-version="1"><ac:rich-text-body>' +
          '<ol><li>Revert the tag.</li><li>Redeploy the previous build.</li></ol>' +
          '</ac:rich-text-body></ac:structured-macro>',
      );
    expect(changed).not.toBe(xml);
    const res = await postImport(ctx.admin, {
      format: 'confluence',
      files: [{ name: 'export.xml.zip', data: zip({ ...tree, 'entities.xml': changed }) }],
    }).expect(200);
    expect(res.body.macros).toEqual(
      expect.arrayContaining([
        { name: 'include', count: 2, conversion: expect.stringMatching(/^include of the page/) },
        { name: 'excerpt-include', count: 1, conversion: expect.stringMatching(/excerpt/) },
        { name: 'excerpt', count: 1, conversion: expect.stringMatching(/^excerpt/) },
      ]),
    );
    const home = (await pageRow(ctx.t, HOME))!.content;
    expect(home).toContain(`\n\n![[${RUNBOOK}]]\n\n![[${ROLLBACK}#excerpt]]\n\n`);
    // A page outside the export stays a link (reported like other unresolved links).
    expect(home).toContain('Included page: [Capacity planning](<Capacity planning>)');
    const rollback = (await pageRow(ctx.t, ROLLBACK))!.content;
    expect(rollback).toContain(
      ':::excerpt excerpt\n\n1.  Revert the tag.\n2.  Redeploy the previous build.\n\n:::',
    );

    const html = (await ctx.admin.get(`/api/pages/${HOME}`).expect(200)).body.html as string;
    expect(html).toContain(`<div class="kb-include" data-include="${RUNBOOK}">`);
    expect(html).toContain(
      `<div class="kb-include" data-include="${ROLLBACK}#excerpt">\n<ol>\n<li>Revert the tag.</li>`,
    );
    // Links and backlinks record the inclusion.
    const backlinks = (await ctx.admin.get(`/api/pages/${ROLLBACK}`).expect(200)).body.backlinks;
    expect(backlinks).toEqual(expect.arrayContaining([expect.objectContaining({ slug: HOME })]));
  });

  it('converts the storage format: callouts, code, expand, tasks, images, links, status, Jira, unknown macros', async () => {
    const res = await importExport().expect(200);
    const image = res.body.images[0].url as string;
    const runbook = (await pageRow(ctx.t, RUNBOOK))!.content;
    expect(runbook).toContain('Status: **APPROVED**');
    expect(runbook).toContain(
      '> [!NOTE]\n> **Before you start**\n>\n> Announce the deploy in `#ops`.',
    );
    expect(runbook).toContain('> [!CAUTION]\n> Never deploy on Fridays.');
    expect(runbook).toContain('> [!TIP]\n> Use the dry run.');
    expect(runbook).toContain('> [!WARNING]\n> Database migrations run first.');
    expect(runbook).toMatch(/- +\[x\] Tag the release\n- +\[ \] Run the pipeline/);
    expect(runbook).toContain(
      '**deploy.sh**\n\n```bash\n#!/bin/sh\nif [[ $(git tag) ]]; then echo "<ok>" && ./deploy --env=prod; fi\n```',
    );
    expect(runbook).toContain(
      '<details>\n<summary>Environment matrix</summary>\n\n| Environment | URL |',
    );
    expect(runbook).toContain('```python\nprint("matrix")\n```\n\n</details>');
    expect(runbook).toContain(`![Deploy pipeline](${image})`);
    expect(runbook).toMatch(new RegExp(`\\[contact list\\]\\(/api/attachments/${UUID}/content\\)`));
    expect(runbook).toContain('See also [Capacity planning](<Capacity planning>).');

    const page = (await ctx.admin.get(`/api/pages/${RUNBOOK}`).expect(200)).body.html as string;
    expect(page).toContain('<div class="markdown-alert markdown-alert-note">');
    expect(page).toContain('<div class="markdown-alert markdown-alert-caution">');
    // Highlighted by language (token spans); the code's text unchanged.
    const code = page.replace(/<\/?span[^>]*>/g, '');
    expect(code).toContain('<pre><code class="language-bash">#!/bin/sh');
    expect(code).toContain('<pre><code class="language-python">print("matrix")');
    expect(page).toContain('<span class="hljs-built_in">print</span>');
    expect(page).toContain('<details>\n<summary>Environment matrix</summary>');
    expect(page).toContain(
      '<input class="task-list-item-checkbox" checked disabled type="checkbox" />',
    );
    expect(page).not.toContain('[!');
    // The print document (preview, print, PDF) shows the collapsible section open.
    const printed = await ctx.admin.post(`/export/preview/${RUNBOOK}`).send({}).expect(200);
    expect(printed.body.document).toContain(
      '<details open>\n<summary>Environment matrix</summary>',
    );
    expect(printed.body.document).toContain('<div class="markdown-alert markdown-alert-tip">');

    const home = (await pageRow(ctx.t, HOME))!.content;
    expect(home).toContain('Welcome to the **Operations** space 🙂');
    expect(home).not.toMatch(/toc|maxLevel/);
    expect(home).toContain(
      `Read the [deploy runbook](/${RUNBOOK}) first, then [Rollback & recovery](/${ROLLBACK}#rollback-steps).`,
    );
    expect(home).toContain('Owner: @ada. Tracking: `OPS-42`');
    expect(home).toContain(
      '> [!NOTE]\n> **Confluence macro "roadmap" (not converted)**\n>\n> source: %7B%22title%22%3A%22Q3%22%7D',
    );
    const rollback = await ctx.admin.get(`/api/pages/${ROLLBACK}`).expect(200);
    expect(rollback.body.content).toContain('```\nkubectl rollout undo deploy/api\n```');
    expect(rollback.body.content).toContain(`[Back _home_](/${HOME})`);
    expect(rollback.body.content).toMatch(
      new RegExp(
        `## Attachments\\n\\n- \\[rollback checklist\\.pdf\\]\\(/api/attachments/${UUID}/content\\)`,
      ),
    );
    expect(rollback.body.html).toContain('<h2 id="rollback-steps">Rollback steps</h2>');
    // Historical versions, drafts and deleted pages are not imported.
    const all = await ctx.t.dataSource.query('SELECT content FROM pages');
    for (const row of all) expect(row.content).not.toContain('SHOULD NOT BE IMPORTED');
  });

  it('links Jira macros with jiraBaseUrl and imports blog posts when asked', async () => {
    const res = await importExport({
      jiraBaseUrl: 'https://jira.example.com/',
      includeBlogPosts: 'true',
    }).expect(200);
    expect([...res.body.created].sort()).toEqual([
      'blog/release-4.2-is-out',
      HOME,
      RUNBOOK,
      ROLLBACK,
    ]);
    expect((await pageRow(ctx.t, HOME))!.content).toContain(
      'Tracking: [OPS-42](https://jira.example.com/browse/OPS-42)',
    );
    expect(await pageRow(ctx.t, 'blog/release-4.2-is-out')).toMatchObject({
      title: 'Release 4.2 is out',
      content: 'We shipped **4.2**.',
    });
    expect(res.body.macros).toContainEqual({
      name: 'jira',
      count: 1,
      conversion: 'link to the Jira issue',
    });
  });

  it('re-importing the same export changes nothing', async () => {
    await importExport().expect(200);
    const again = await importExport().expect(200);
    expect(again.body.unchanged.sort()).toEqual([HOME, RUNBOOK, ROLLBACK]);
    expect(again.body.counts).toMatchObject({ created: 0, replaced: 0, unchanged: 3 });
  });

  it('refuses an entities.xml that is not well-formed XML, naming it; nothing is written', async () => {
    const res = await postImport(ctx.admin, {
      format: 'confluence',
      files: [
        {
          name: 'broken.xml.zip',
          data: zip({ 'entities.xml': '<hibernate-generic><object class="Page"><id>1</id>' }),
        },
      ],
    }).expect(422);
    expect(res.body.errors).toEqual([
      {
        field: 'files[entities.xml]',
        code: 'confluence_invalid_export',
        message: expect.stringMatching(/^"entities\.xml" is not well-formed XML/),
      },
    ]);
    expect(await count(ctx.t, 'pages')).toBe(0);
  });

  it('refuses a jiraBaseUrl that is not an http(s) URL', async () => {
    const res = await importExport({ jiraBaseUrl: 'javascript:alert(1)' }).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'jiraBaseUrl', code: 'invalid_url', message: expect.any(String) },
    ]);
  });
});
