import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { createPage } from '../support/pages';
import { login } from '../support/users';
import { newContext, signIn, useConsoleApp, type ConsoleApp } from './console-app';

/** The administrator's workspace (issue 12, "The workspace"): each numbered flow in a browser. */
describe('console: the administrator’s workspace', () => {
  const h = useConsoleApp({ seed: true, signIn: 'admin' });
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    ({ app, browser, page } = h);
    await page.exposeFunction('__reportViolation', (v: string) => cspViolations.push(v));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      ),
    );
  });
  afterAll(() => expect(cspViolations).toEqual([]));

  /** Samples the import progress bar every 25 ms, with whether the report was shown yet. */
  const watchProgress = () =>
    page.evaluate(() => {
      const w = window as unknown as { __samples: unknown[]; __watch?: number };
      w.__samples = [];
      window.clearInterval(w.__watch);
      w.__watch = window.setInterval(() => {
        const bar = document.querySelector<HTMLProgressElement>(
          'progress[aria-label="Import progress"]',
        );
        const report = [...document.querySelectorAll('caption')].some(
          (c) => c.textContent === 'Report',
        );
        const phase = document.querySelector('.import__phase')?.textContent ?? '';
        w.__samples.push({ value: bar?.position ?? -1, phase, report });
      }, 25);
    });
  const progressSamples = () =>
    page.evaluate(() => {
      const w = window as unknown as {
        __samples: { value: number; phase: string; report: boolean }[];
        __watch?: number;
      };
      window.clearInterval(w.__watch);
      return w.__samples;
    });

  const nav = (p: Page = page) => p.getByRole('navigation', { name: 'Administration' });
  const open = async (name: string) => {
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await nav().getByRole('link', { name, exact: true }).click();
  };

  it('shows the Admin link to administrators only, and no admin controls to others', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    for (const name of ['Import', 'Export', 'Bin', 'Users', 'Groups', 'Variables', 'Graph']) {
      await nav().getByRole('link', { name, exact: true }).waitFor();
    }
    await nav().getByRole('link', { name: 'Review due' }).waitFor();

    for (const person of [app.editor, app.reader]) {
      const context = await newContext(browser, app);
      const other = await context.newPage();
      try {
        await signIn(other, person, '/admin/bin');
        await other.getByText('This part of kb is for administrators.').waitFor();
        expect(await other.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
        expect(await nav(other).count()).toBe(0);
        expect(
          await other.getByRole('button', { name: /Restore|Purge|Import|Dry run/ }).count(),
        ).toBe(0);
        await other.goto('/admin/users');
        await other.getByText('This part of kb is for administrators.').waitFor();
        expect(await other.getByRole('heading', { name: 'Users' }).count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  });

  it('lists the bin with who and when, restores, restores under a new slug when the slug is taken and purges after asking', async () => {
    await createPage(app.as.editor, 'scratch/old', { title: 'Old notes' });
    await createPage(app.as.editor, 'scratch/taken', { title: 'First taken' });
    await createPage(app.as.editor, 'scratch/doomed', { title: 'Doomed notes' });
    await app.as.admin.delete('/api/pages/scratch/old').expect(204);
    await app.as.admin.delete('/api/pages/scratch/taken').expect(204);
    await app.as.admin.delete('/api/pages/scratch/doomed').expect(204);
    await createPage(app.as.editor, 'scratch/taken', { title: 'Second taken' });

    await open('Bin');
    await page.getByRole('heading', { name: 'Bin' }).waitFor();
    const row = (title: string) => page.getByRole('row').filter({ hasText: title });
    await row('Old notes').getByText('ada').waitFor();
    await row('Old notes').getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').getByRole('link', { name: 'Old notes' }).waitFor();
    await app.as.reader.get('/api/pages/scratch/old').expect(200);
    await row('Old notes').waitFor({ state: 'detached' });

    // The slug is taken: the dialog offers a new one; a slug that is taken too is refused.
    await row('First taken').getByRole('button', { name: 'Restore' }).click();
    const taken = page.getByRole('dialog', { name: 'The slug is taken' });
    await taken.getByText('scratch/taken', { exact: true }).waitFor();
    const newSlug = taken.getByRole('textbox', { name: 'New slug' });
    expect(await newSlug.inputValue()).toBe('scratch/taken-restored');
    await newSlug.fill('scratch/old');
    await taken.getByRole('button', { name: 'Restore' }).click();
    await taken
      .getByRole('alert')
      .getByText(/scratch\/old/)
      .waitFor();
    await newSlug.fill('scratch//bad');
    await taken.getByRole('button', { name: 'Restore' }).click();
    await taken.getByText(/slug/i).and(taken.locator('.field__errors li')).first().waitFor();
    expect((await app.as.admin.get('/api/bin').expect(200)).body.items).toHaveLength(2);
    await newSlug.fill('scratch/taken-first');
    await taken.getByRole('button', { name: 'Restore' }).click();
    await taken.waitFor({ state: 'detached' });
    await page.getByRole('status').getByRole('link', { name: 'First taken' }).click();
    await page.waitForURL(/\/wiki\/scratch\/taken-first$/);
    await page.getByRole('heading', { name: 'First taken' }).waitFor();
    expect((await app.as.reader.get('/api/pages/scratch/taken').expect(200)).body.title).toBe(
      'Second taken',
    );

    await open('Bin');
    await row('Doomed notes').getByRole('button', { name: 'Purge' }).click();
    const confirm = page.getByRole('dialog', { name: /Purge “Doomed notes”/ });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await app.as.admin.get('/api/bin').expect(200)).body.items).toHaveLength(1);
    await row('Doomed notes').getByRole('button', { name: 'Purge' }).click();
    await confirm.getByRole('button', { name: 'Purge for good' }).click();
    await page.getByText('The bin is empty.').waitFor();
    expect((await app.as.admin.get('/api/bin').expect(200)).body.items).toEqual([]);
    await app.as.reader.get('/api/pages/scratch/doomed').expect(404);
  });

  it('creates a user, changes role and groups, resets the password and disables the account', async () => {
    await open('Groups');
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
    await page.getByLabel('New group').fill('writers');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('row', { name: /writers/ }).waitFor();

    await nav().getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Password', { exact: true }).fill('first-password');
    await page.getByLabel('Role', { exact: true }).selectOption('reader');
    await page
      .getByRole('group', { name: 'Groups' })
      .getByRole('checkbox', { name: 'ops' })
      .check();
    await page.getByRole('button', { name: 'Create user' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Grace Hopper' });
    await row.waitFor();

    await row.getByRole('combobox', { name: 'Role of grace' }).selectOption('editor');
    const grace = async () => {
      const users = (await app.as.admin.get('/api/users?limit=100').expect(200)).body.items;
      return users.find((u: { username: string }) => u.username === 'grace');
    };
    await waitFor(async () => (await grace()).role === 'editor');

    await row.getByRole('button', { name: 'Groups of grace' }).click();
    const groups = page.getByRole('dialog', { name: 'Groups of grace' });
    await groups.getByRole('checkbox', { name: 'writers' }).check();
    await groups.getByRole('checkbox', { name: 'ops' }).uncheck();
    await groups.getByRole('button', { name: 'Save groups' }).click();
    await row.getByText('writers').waitFor();
    expect((await grace()).groups).toEqual(['writers']);

    await row.getByRole('button', { name: 'Reset password of grace' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the password of grace' });
    await reset.getByLabel('New password').fill('second-password');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.waitFor({ state: 'detached' });
    await login(app.t, { ...(await grace()), password: 'second-password' });

    await row.getByRole('button', { name: 'Disable grace' }).click();
    await row.getByText('Disabled').waitFor();
    expect((await grace()).disabled).toBe(true);
    await app.t
      .http()
      .post('/auth/login')
      .send({ username: 'grace', password: 'second-password' })
      .expect(401);
  });

  it('edits the site variables pages inherit', async () => {
    await open('Variables');
    await page.getByRole('heading', { name: 'Variables' }).waitFor();
    await page.getByLabel('Value of company').fill('Initech');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name of variable 3').fill('city');
    await page.getByLabel('Value of city').fill('Austin');
    await page.getByRole('button', { name: 'Save variables' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await app.as.reader.get('/api/variables').expect(200)).body.variables).toEqual({
      company: 'Initech',
      support_email: 'help@acme.example',
      city: 'Austin',
    });
    await page.goto('/wiki/handbook');
    await page.getByText('Everything you need to know to work at Initech.').waitFor();
  });

  it('lists the pages due for review with their owners, oldest first', async () => {
    await createPage(app.as.editor, 'review/recent', {
      title: 'Recently due',
      owner: 'edith',
      nextReviewAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    await open('Review due');
    await page.getByRole('heading', { name: 'Review due' }).waitFor();
    const rows = page.getByRole('table', { name: 'Pages due for review' }).getByRole('row');
    await rows.filter({ hasText: 'Recently due' }).waitFor();
    const texts = await rows.allInnerTexts();
    expect(texts.slice(1).map((t) => t.split('\n')[0].trim())).toEqual([
      'Onboarding',
      'Recently due',
    ]);
    expect(texts[1]).toContain('ada');
    expect(texts[2]).toContain('edith');
    await rows.getByRole('link', { name: 'Onboarding' }).click();
    await page.waitForURL('**/wiki/handbook/onboarding');
  });

  it('exports an archive of a subtree, of a tag and of everything', async () => {
    await open('Export');
    await page.getByRole('heading', { name: 'Export' }).waitFor();
    const download = async () => {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download archive' }).click(),
      ]);
      const zip = unzipSync(new Uint8Array(readFileSync((await file.path())!)));
      const manifest = JSON.parse(strFromU8(zip['manifest.json'])) as {
        pages: { slug: string }[];
      };
      return manifest.pages.map((p) => p.slug).sort();
    };
    await page.getByRole('radio', { name: 'A subtree' }).check();
    await page.getByRole('textbox', { name: 'Subtree' }).fill('handbook');
    await page.getByText('3 pages selected').waitFor();
    expect(await download()).toEqual(['handbook', 'handbook/onboarding', 'handbook/tools']);

    await page.getByRole('radio', { name: 'A tag' }).check();
    await page.getByRole('combobox', { name: 'Tag' }).selectOption('runbook');
    expect(await download()).toEqual(['runbooks/deploy']);

    await page.getByRole('radio', { name: 'A search' }).check();
    await page.getByRole('searchbox', { name: 'Search words' }).fill('laptop');
    expect(await download()).toEqual(['handbook/onboarding']);

    await page.getByRole('radio', { name: 'All pages' }).check();
    const every = (await app.as.admin.get('/api/graph').expect(200)).body.nodes as {
      slug: string;
    }[];
    expect(every.length).toBeGreaterThanOrEqual(6);
    expect(await download()).toEqual(every.map((n) => n.slug).sort());
  });

  /** A ZIP of `count` Markdown pages (`bulk/p0001`…), each linking the next, every tenth tagged. */
  function bulkZip(count: number): Buffer {
    const files: Record<string, string> = {};
    for (let i = 1; i <= count; i++) {
      const name = `p${String(i).padStart(4, '0')}`;
      const next = `p${String((i % count) + 1).padStart(4, '0')}`;
      const tags = i % 10 === 0 ? 'tags: [tenth]\n' : '';
      files[`${name}.md`] =
        `---\n${tags}---\n# Bulk page ${i}\n\nSee [the next one](${next}.md) and [the first](p0001.md).\n`;
    }
    return zipOf(files);
  }

  it('says in words why an import was refused (422 lists each bad file)', async () => {
    await open('Import');
    await page.getByRole('heading', { name: 'Import' }).waitFor();
    await page.getByLabel('Format').selectOption({ label: 'Markdown' });
    await page.getByLabel('Files').setInputFiles([
      { name: 'good.md', mimeType: 'text/markdown', buffer: Buffer.from('# Good\n\nFine.') },
      { name: 'untitled.md', mimeType: 'text/markdown', buffer: Buffer.from('No title here.') },
    ]);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Nothing was imported. Fix these files').waitFor();
    await alert.getByText('untitled.md').waitFor();
    await app.as.admin.get('/api/pages/good').expect(404);
  });

  it('mirrors a folder: the dry run plans the pages the files no longer hold for the bin, the import bins them', async () => {
    for (const slug of ['mirrored/keep', 'mirrored/gone', 'mirrored-not/other'])
      await app.as.admin.post('/api/pages').send({ slug, title: slug, content: 'x' }).expect(201);
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import' }).waitFor();
    await page.getByLabel('Format').selectOption({ label: 'Markdown' });
    await page.getByLabel('Files').setInputFiles([
      {
        name: 'keep.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Keep\n\nStill here.'),
      },
    ]);
    await page.getByLabel('Prefix').fill('mirrored');
    await page.getByRole('checkbox', { name: /^Mirror:/ }).check();
    await page.getByRole('button', { name: 'Dry run' }).click();
    const plan = page.getByRole('table', { name: 'Plan' });
    await plan.waitFor({ timeout: 60_000 });
    await plan.getByRole('row', { name: /Move to bin.*mirrored\/gone/ }).waitFor();
    expect(await plan.getByRole('row', { name: /mirrored-not/ }).count()).toBe(0);
    await page
      .getByText('0 to create, 1 to replace, 0 unchanged, 0 skipped, 1 to move to the bin.')
      .waitFor();
    await app.as.admin.get('/api/pages/mirrored/gone').expect(200);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('table', { name: 'Report' });
    await report.waitFor({ timeout: 60_000 });
    await page
      .getByText('0 created, 1 replaced, 0 unchanged, 0 skipped, 1 moved to the bin.')
      .waitFor();
    await app.as.admin.get('/api/pages/mirrored/gone').expect(404);
    await app.as.admin.get('/api/pages/mirrored-not/other').expect(200);
  }, 120_000);

  it('dry-runs a 3,000-page ZIP into a filterable plan, imports it as a job whose progress bar moves, and links the report', async () => {
    await page.goto('/admin/import');
    await page.getByRole('heading', { name: 'Import' }).waitFor();
    await page.getByLabel('Format').selectOption({ label: 'Markdown' });
    await page.getByLabel('Files').setInputFiles({
      name: 'bulk.zip',
      mimeType: 'application/zip',
      buffer: bulkZip(3000),
    });
    await page.getByLabel('Prefix').fill('bulk');
    await page.getByRole('button', { name: 'Dry run' }).click();
    const plan = page.getByRole('table', { name: 'Plan' });
    await plan.waitFor({ timeout: 120_000 });
    await page.getByText('3000 to create, 0 to replace, 0 unchanged, 0 skipped.').waitFor();
    await app.as.admin.get('/api/pages/bulk/p0001').expect(404);
    await page.getByRole('searchbox', { name: 'Filter' }).fill('p0999');
    await plan.getByRole('row', { name: /bulk\/p0999/ }).waitFor();
    expect(await plan.getByRole('row').count()).toBe(2);

    await watchProgress();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('table', { name: 'Report' });
    await report.waitFor({ timeout: 180_000 });
    await page.getByText('3000 created, 0 replaced, 0 unchanged, 0 skipped.').waitFor();
    // The bar moved while the job ran (SSE), before the report appeared.
    const samples = await progressSamples();
    const jobValues = new Set(
      samples
        .filter((x) => !x.report && !x.phase.startsWith('Uploading') && x.value > 0)
        .map((x) => x.value),
    );
    expect(jobValues.size).toBeGreaterThanOrEqual(2);
    expect(samples.some((x) => x.phase.startsWith('Writing pages'))).toBe(true);
    expect((await app.as.reader.get('/api/pages/bulk/p0500').expect(200)).body.title).toBe(
      'Bulk page 500',
    );
    await report.getByRole('link', { name: 'bulk/p0001' }).click();
    await page.waitForURL('**/wiki/bulk/p0001');
    await page.getByRole('heading', { name: 'Bulk page 1', level: 1 }).waitFor();
  }, 240_000);

  it('cancels a running import job and writes nothing, and lists past jobs with their reports', async () => {
    await page.goto('/admin/import');
    await page.getByLabel('Format').selectOption({ label: 'Markdown' });
    await page.getByLabel('Files').setInputFiles({
      name: 'cancel.zip',
      mimeType: 'application/zip',
      buffer: bulkZip(3000),
    });
    await page.getByLabel('Prefix').fill('cancelled');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page
      .locator('.import__phase')
      .getByText(/^(Unpacking|Converting|Writing pages|Waiting)/)
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('status')
      .getByText('Cancelled: nothing was written.')
      .waitFor({ timeout: 60_000 });
    await app.as.admin.get('/api/pages/cancelled/p0001').expect(404);
    const jobs = (await app.as.admin.get('/api/import/jobs').expect(200)).body.items;
    expect(jobs[0].state).toBe('cancelled');

    const past = page.getByRole('table', { name: 'Recent jobs' });
    await past.getByRole('row').filter({ hasText: 'cancelled' }).first().waitFor();
    await past
      .getByRole('row')
      .filter({ hasText: 'succeeded' })
      .getByRole('button', { name: /Show report/ })
      .first()
      .click();
    await page.getByText('3000 created, 0 replaced, 0 unchanged, 0 skipped.').waitFor();
    await page.getByRole('searchbox', { name: 'Filter' }).fill('p3000');
    await page
      .getByRole('table', { name: 'Report' })
      .getByRole('link', { name: 'bulk/p3000' })
      .waitFor();
  }, 240_000);

  it('draws the knowledge graph at 1,000 nodes, filters it and opens a page on click', async () => {
    await open('Graph');
    await page.getByRole('heading', { name: 'Graph' }).waitFor();
    const canvas = page.getByRole('img', { name: 'Knowledge graph' });
    await canvas.waitFor();
    const nodeCount = () =>
      page.evaluate(
        () =>
          (window as unknown as { __kbGraph?: { nodes(): { length: number } } }).__kbGraph?.nodes()
            .length ?? 0,
      );
    await waitFor(async () => (await nodeCount()) >= 1000, 60_000);

    await page.getByRole('combobox', { name: 'Tag' }).selectOption('tenth');
    await page.getByText('300 pages', { exact: true }).waitFor();
    await waitFor(async () => (await nodeCount()) === 300);
    await page.getByRole('combobox', { name: 'Tag' }).selectOption('');
    await page.getByRole('textbox', { name: 'Subtree' }).fill('handbook');
    await page.getByText('3 pages', { exact: true }).waitFor();
    await waitFor(async () => (await nodeCount()) === 3);

    const at = await page.evaluate(() => {
      const cy = (
        window as unknown as {
          __kbGraph: {
            getElementById(id: string): { renderedPosition(): { x: number; y: number } };
          };
        }
      ).__kbGraph;
      return cy.getElementById('handbook/tools').renderedPosition();
    });
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForURL('**/wiki/handbook/tools');
  }, 120_000);
});

/** Polls `check` until it holds (a generous bound; no timing is asserted). */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function zipOf(files: Record<string, string>): Buffer {
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]))),
  );
}
