import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../support/pdf';
import { createTestApp, type TestApp } from '../support/test-app';
import { Client, createGroup, createUser, login, type TestUser } from '../support/users';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureConsoleBuilt } = require('../../scripts/build-steps') as {
  ensureConsoleBuilt(force?: boolean): void;
};

/** GUIDE.md's flags for Debian's Chromium in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export interface ConsoleApp {
  t: TestApp;
  url: string;
  admin: TestUser;
  editor: TestUser;
  reader: TestUser;
  /** API clients signed in as each (for seeding and for checking what the console did). */
  as: { admin: Client; editor: Client; reader: Client };
  close(): Promise<void>;
}

/**
 * The real app on a free port (or `port`, when its address must be known in advance, as
 * KB_PUBLIC_URL) with the built console (built first when missing or stale), and three people:
 * an administrator, an editor and a reader.
 */
export async function startConsoleApp(
  env: Record<string, string> = {},
  port = 0,
): Promise<ConsoleApp> {
  ensureConsoleBuilt();
  const t = await createTestApp(env);
  await t.app.listen(port, '127.0.0.1');
  const { port: listening } = t.app.getHttpServer().address() as AddressInfo;
  await createGroup(t, 'ops');
  const admin = await createUser(t, 'admin', { username: 'ada' });
  const editor = await createUser(t, 'editor', { username: 'edith', groups: ['ops'] });
  const reader = await createUser(t, 'reader', { username: 'rita' });
  return {
    t,
    url: `http://127.0.0.1:${listening}`,
    admin,
    editor,
    reader,
    as: {
      admin: await login(t, admin),
      editor: await login(t, editor),
      reader: await login(t, reader),
    },
    close: () => t.close(),
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export async function newContext(
  browser: Browser,
  app: ConsoleApp,
  viewport = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  return browser.newContext({ baseURL: app.url, viewport, acceptDownloads: true });
}

/** Runs `run` in a page of a fresh browser context (its own cookies), closed afterwards. */
export async function withPage(
  browser: Browser,
  app: ConsoleApp,
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await newContext(browser, app);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Signs in through the form and waits for the shell. */
export async function signIn(page: Page, user: TestUser, path = '/'): Promise<void> {
  await page.goto(path === '/' ? '/login' : `/login?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The header's box (a "Not found" screen has a search box of its own).
  await page.getByRole('searchbox', { name: 'Search', exact: true }).waitFor();
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the console's CSP
 * does not govern) and answers the serious and critical violations.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{
            violations: {
              id: string;
              impact: string | null;
              help: string;
              nodes: { target: string[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
}

export const LONG_PAGE = [
  'Welcome aboard! This page walks you through your **first week**: accounts, tools and the people to ask.',
  '',
  '## Before you start',
  '',
  '- Read the [tools overview](/handbook/tools) and the [deploy runbook](../runbooks/deploy).',
  '- Ask your lead for access to the `ops` group.',
  '- Set up two-factor authentication.',
  '',
  '## Your first day',
  '',
  'Most of the day goes to setting up your laptop. Keep notes as you go — anything missing here is a bug in this handbook, and you are welcome to fix it.',
  '',
  '| Time | What | Who |',
  '| --- | --- | --- |',
  '| 09:00 | Welcome coffee | Your lead |',
  '| 10:00 | Laptop set-up | IT |',
  '| 14:00 | Team introduction | Everyone |',
  '',
  '```sh',
  'git clone https://example.com/acme/handbook.git',
  'npm ci && npm start',
  '```',
  '',
  '> Tip: the search box finds words in titles, text and tags.',
  '',
  '## Your first week',
  '',
  '1. Pair with a colleague on a small change.',
  '2. Ship it.',
  '3. Write down what surprised you.',
].join('\n');

/** Pages, tags, variables and notifications that make every screen show something real. */
export async function seedWiki(app: ConsoleApp): Promise<void> {
  const { admin, editor } = app.as;
  const create = async (client: Client, body: Record<string, unknown>) => {
    const res = await client.post('/api/pages').send(body);
    if (res.status !== 201)
      throw new Error(`seed ${String(body.slug)}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await admin
    .put('/api/variables')
    .send({ variables: { company: 'ACME Corp', support_email: 'help@acme.example' } })
    .expect(200);
  await create(admin, {
    slug: 'handbook',
    title: 'Handbook',
    icon: '📘',
    tags: ['guide', 'onboarding'],
    owner: 'ada',
    reviewIntervalDays: 180,
    content:
      'Everything you need to know to work at {{company}}.\n\n- [Onboarding](/handbook/onboarding)\n- [Tools](/handbook/tools)',
    verified: true,
  });
  await create(admin, {
    slug: 'handbook/onboarding',
    title: 'Onboarding',
    icon: '🚀',
    tags: ['guide', 'onboarding', 'people'],
    owner: 'ada',
    language: 'en',
    nextReviewAt: '2020-01-01T00:00:00.000Z',
    properties: { team: 'People', audience: 'new starters' },
    content: LONG_PAGE,
    verified: true,
  });
  await create(editor, {
    slug: 'handbook/tools',
    title: 'Tools',
    tags: ['guide', 'tools'],
    content: 'The tools we use every day.\n\nSee also [Onboarding](/handbook/onboarding).',
  });
  await create(editor, {
    slug: 'runbooks/deploy',
    title: 'Deploy to production',
    icon: '🛠️',
    tags: ['ops', 'runbook'],
    owner: 'edith',
    lifecycle: 'in_review',
    variables: { customer: 'Globex', region: 'eu-west-1' },
    content:
      'Deployment checklist for **{{customer}}** in `{{region}}`, prepared by {{company}}.\n\n1. Announce the window.\n2. Run the pipeline.\n3. Watch the dashboards.\n\n<!-- pagebreak -->\n\nQuestions: {{support_email}}.',
  });
  await create(editor, {
    slug: 'runbooks/old-deploy',
    title: 'Old deploy steps',
    tags: ['ops'],
    lifecycle: 'deprecated',
    deprecatedTarget: 'runbooks/deploy',
    content: 'Kept for reference only.',
  });
  await create(editor, {
    slug: 'ops/secrets',
    title: 'Secrets rotation',
    tags: ['ops'],
    groups: ['ops'],
    content: 'Only the ops group sees this page.',
  });
}

export interface ConsoleHarness {
  app: ConsoleApp;
  browser: Browser;
  /** With `signIn`: a desktop context and page signed in as that person. */
  context: BrowserContext;
  page: Page;
}

/**
 * One seeded app and one browser for a spec file (jest hooks), so each file pays for them once.
 * `env` is read when the app starts (after earlier beforeAll hooks, e.g. a PDF service).
 */
export function useConsoleApp(
  options: {
    env?: () => Record<string, string>;
    seed?: boolean;
    signIn?: 'admin' | 'editor' | 'reader';
  } = {},
): ConsoleHarness {
  const harness = {} as ConsoleHarness;
  beforeAll(async () => {
    [harness.app, harness.browser] = await Promise.all([
      startConsoleApp(options.env?.() ?? {}),
      launchBrowser(),
    ]);
    if (options.seed) await seedWiki(harness.app);
    if (options.signIn) {
      harness.context = await newContext(harness.browser, harness.app);
      harness.page = await harness.context.newPage();
      await signIn(harness.page, harness.app[options.signIn]);
    }
  }, 240_000);
  afterAll(async () => {
    await harness.browser?.close();
    await harness.app?.close();
  });
  return harness;
}
