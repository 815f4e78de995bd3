import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations, signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { updatePage } from '../support/pages';

/**
 * Every main screen at a desktop and a phone width: it renders its content, and axe-core finds
 * no serious or critical violation. `npm run screenshots` (UPDATE_SCREENSHOTS=1) also writes
 * the PNGs docs/console.md shows.
 */
const shots =
  process.env.SCREENSHOT_DIR ??
  (process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'console') : null);
/** `SCREENS_ONLY=search,tag`: only these screens (to look at one while working on it). */
const only = process.env.SCREENS_ONLY?.split(',');

interface Screen {
  name: string;
  open: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'home',
    open: async (page) => {
      await page.goto('/');
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    },
  },
  {
    name: 'page',
    open: async (page) => {
      await page.goto('/wiki/handbook/onboarding');
      await page.getByRole('heading', { name: 'Your first day' }).waitFor();
    },
  },
  {
    name: 'quick-switcher',
    open: async (page) => {
      await page.goto('/wiki/handbook');
      await page
        .getByRole('heading', { name: /Handbook/ })
        .first()
        .waitFor();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Go to page' });
      await dialog.getByRole('combobox').fill('handbook/');
      await dialog.getByRole('option').nth(1).waitFor();
    },
  },
  {
    name: 'deprecated-page',
    open: async (page) => {
      await page.goto('/wiki/runbooks/old-deploy');
      await page.getByRole('note').getByRole('link', { name: 'runbooks/deploy' }).waitFor();
    },
  },
  {
    name: 'search',
    open: async (page) => {
      await page.goto('/search?q=onboarding');
      await page.locator('.result mark').first().waitFor();
      await page.getByRole('complementary', { name: 'Refine' }).waitFor();
    },
  },
  {
    name: 'tag',
    open: async (page) => {
      await page.goto('/tags/guide');
      await page.getByRole('list', { name: 'Pages tagged guide' }).waitFor();
    },
  },
  {
    name: 'editor',
    open: async (page) => {
      await page.goto('/edit/runbooks/deploy');
      await page
        .getByRole('region', { name: 'Preview' })
        .getByText('Deployment checklist')
        .waitFor();
    },
  },
  {
    name: 'page-details',
    open: async (page) => {
      await page.goto('/edit/handbook/onboarding');
      await page.getByText('Page details').click();
      await page.getByRole('group', { name: 'Variables' }).scrollIntoViewIfNeeded();
      await page.getByRole('textbox', { name: 'Owner' }).scrollIntoViewIfNeeded();
    },
  },
  {
    // The draft of "My drafts" below is older than the page's live session: offered into it.
    name: 'live-draft-offer',
    open: async (page) => {
      await page.goto('/edit/handbook/onboarding');
      await page
        .getByRole('alert')
        .getByRole('button', { name: 'Apply draft to the live page' })
        .waitFor();
      await page
        .getByRole('region', { name: 'Preview' })
        .getByRole('heading', { name: 'Before you start' })
        .waitFor();
    },
  },
  {
    name: 'new-page',
    open: async (page) => {
      await page.goto('/new');
      await page.getByRole('textbox', { name: 'Content' }).waitFor();
    },
  },
  {
    name: 'revisions',
    open: async (page) => {
      await page.goto('/history/handbook/tools');
      await page.getByRole('heading', { name: /Revision 2 → 3/ }).waitFor();
    },
  },
  {
    name: 'print',
    open: async (page) => {
      await page.goto('/wiki/runbooks/deploy');
      await page.getByRole('button', { name: 'Print…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Print' });
      await dialog.getByLabel('customer', { exact: true }).fill('Initech');
      await dialog.getByRole('button', { name: 'Preview print' }).click();
      await page
        .frameLocator('iframe[title="Print preview"]')
        .getByText('Initech')
        .first()
        .waitFor();
    },
  },
  {
    name: 'notifications',
    open: async (page) => {
      await page.goto('/notifications');
      await page.getByRole('link', { name: 'Tools' }).first().waitFor();
    },
  },
  {
    name: 'tokens',
    open: async (page) => {
      await page.goto('/tokens');
      await page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    },
  },
  {
    name: 'account',
    open: async (page) => {
      await page.goto('/account');
      await page.getByRole('region', { name: 'Sessions' }).getByText('This session').waitFor();
    },
  },
  {
    name: 'my-drafts',
    open: async (page) => {
      await page.goto('/drafts');
      await page.getByRole('table', { name: 'My drafts' }).getByRole('row').nth(1).waitFor();
    },
  },
  {
    name: 'not-found',
    open: async (page) => {
      await page.goto('/guides/release-train');
      await page.getByRole('heading', { name: 'Not found' }).waitFor();
    },
  },
  {
    name: 'export-menu',
    open: async (page) => {
      await page.goto('/wiki/handbook/tools');
      await page.getByRole('button', { name: 'Export' }).click();
      await page.getByRole('menuitem', { name: 'ZIP with images' }).waitFor();
    },
  },
  {
    name: 'account-menu',
    open: async (page) => {
      await page.goto('/wiki/handbook');
      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('switch', { name: 'Dark mode' }).waitFor();
    },
  },
  {
    name: 'admin-import',
    open: async (page) => {
      await page.goto('/admin/import');
      await page.getByRole('heading', { name: 'Import' }).waitFor();
      await page.getByLabel('Files').setInputFiles([
        { name: 'intro.md', mimeType: 'text/markdown', buffer: Buffer.from(IMPORT_INTRO) },
        { name: 'setup.md', mimeType: 'text/markdown', buffer: Buffer.from('# Setup\n\nSteps.') },
        { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('No title.') },
      ]);
      await page.getByLabel('Prefix').fill('imported');
      await page.getByRole('checkbox', { name: /Skip invalid documents/ }).check();
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.getByRole('table', { name: 'Plan' }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'admin-export',
    open: async (page) => {
      await page.goto('/admin/export');
      await page.getByRole('radio', { name: 'A subtree' }).check();
      await page.getByRole('textbox', { name: 'Subtree' }).fill('handbook');
      await page.getByText('3 pages selected').waitFor();
    },
  },
  {
    name: 'admin-bin',
    open: async (page) => {
      await page.goto('/admin/bin');
      await page.getByRole('button', { name: 'Purge' }).first().waitFor();
    },
  },
  {
    name: 'admin-bin-restore',
    open: async (page) => {
      await page.goto('/admin/bin');
      await page
        .getByRole('row')
        .filter({ hasText: 'Old plan' })
        .getByRole('button', { name: 'Restore' })
        .click();
      await page
        .getByRole('dialog', { name: 'The slug is taken' })
        .getByRole('textbox', { name: 'New slug' })
        .waitFor();
    },
  },
  {
    name: 'admin-users',
    open: async (page) => {
      await page.goto('/admin/users');
      await page.getByRole('row', { name: /edith/ }).waitFor();
    },
  },
  {
    name: 'admin-groups',
    open: async (page) => {
      await page.goto('/admin/groups');
      await page.getByRole('row', { name: /ops/ }).waitFor();
    },
  },
  {
    name: 'admin-variables',
    open: async (page) => {
      await page.goto('/admin/variables');
      await page.getByLabel('Value of company').waitFor();
    },
  },
  {
    name: 'admin-graph',
    open: async (page) => {
      await page.goto('/admin/graph');
      await page.getByRole('img', { name: 'Knowledge graph' }).waitFor();
      await page.locator('.graph__canvas canvas').first().waitFor();
    },
  },
  {
    name: 'admin-review',
    open: async (page) => {
      await page.goto('/admin/review');
      await page
        .getByRole('table', { name: 'Pages due for review' })
        .getByRole('link', { name: 'Onboarding' })
        .waitFor();
    },
  },
];

const IMPORT_INTRO = '# Introduction\n\nSee [setup](setup.md) and [the missing page](gone.md).';

describe('console screens (desktop and phone, axe-core)', () => {
  const h = useConsoleApp({ seed: true });
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    ({ app, browser } = h);
    // A revision to compare, and a notification for ada (edith edits ada's page).
    await app.as.admin
      .put('/api/pages/handbook/tools')
      .send({ owner: 'ada', baseRevision: 1 })
      .expect(200);
    await updatePage(app.as.editor, 'handbook/tools', {
      content: 'The tools we use every day: an editor, a terminal and kb.',
    });
    await app.as.admin.post('/api/tokens').send({ name: 'ci-import', scope: 'editor' }).expect(201);
    // Unsaved work for "My drafts".
    await app.as.admin
      .put('/api/drafts/page:handbook/onboarding')
      .send({ title: 'Onboarding', content: 'Welcome aboard, again.', baseRevision: 1 })
      .expect(201);
    // Something in the bin for the workspace's Bin screen.
    await app.as.editor
      .post('/api/pages')
      .send({ slug: 'drafts/old-plan', title: 'Old plan', content: 'Superseded.' })
      .expect(201);
    await app.as.admin.delete('/api/pages/drafts/old-plan').expect(204);
    // ...whose slug a live page took meanwhile (its Restore offers a new slug).
    await app.as.editor
      .post('/api/pages')
      .send({ slug: 'drafts/old-plan', title: 'New plan', content: 'The plan now.' })
      .expect(201);
    if (shots) mkdirSync(shots, { recursive: true });
  });

  for (const [device, viewport, colorScheme] of [
    ['desktop', { width: 1280, height: 800 }, 'light'],
    ['phone', { width: 390, height: 844 }, 'light'],
    ['desktop', { width: 1280, height: 800 }, 'dark'],
    ['phone', { width: 390, height: 844 }, 'dark'],
  ] as const) {
    // Dark mode follows the system: the browser says dark, and every screen must read well.
    const suffix = colorScheme === 'dark' ? `${device}-dark` : device;
    it(`shows every screen on a ${device} (${colorScheme}) without serious accessibility violations`, async () => {
      const context = await browser.newContext({
        baseURL: app.url,
        viewport,
        colorScheme,
        acceptDownloads: true,
      });
      const page = await context.newPage();
      try {
        await page.goto('/login');
        await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        if (shots) await page.screenshot({ path: join(shots, `login-${suffix}.png`) });
        await signIn(page, app.admin);
        for (const screen of SCREENS.filter((x) => !only || only.includes(x.name))) {
          await screen.open(page);
          expect({ screen: screen.name, violations: await seriousA11yViolations(page) }).toEqual({
            screen: screen.name,
            violations: [],
          });
          if (shots) await page.screenshot({ path: join(shots, `${screen.name}-${suffix}.png`) });
          await page.keyboard.press('Escape');
        }
        if (device === 'phone') {
          await page.goto('/wiki/handbook');
          await page.getByRole('button', { name: 'Menu' }).click();
          await page
            .getByRole('tree', { name: 'Pages' })
            .getByRole('treeitem', { name: 'Handbook' })
            .waitFor();
          expect(await seriousA11yViolations(page)).toEqual([]);
          if (shots) await page.screenshot({ path: join(shots, `menu-${suffix}.png`) });
        }
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
