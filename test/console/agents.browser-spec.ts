import type { Page } from 'playwright-core';
import { useConsoleApp, type ConsoleApp } from './console-app';

/** Issue 34 in the console: path-scoped tokens on the tokens screen, the admin's MCP switch. */
describe('console: path-scoped tokens and the MCP settings', () => {
  const h = useConsoleApp({ seed: true, signIn: 'admin' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(() => {
    ({ app, page } = h);
  });

  it('creates a token limited to paths and verbs, shows them, and the token keeps to them', async () => {
    await page.goto('/tokens');
    await page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    await page.getByLabel('Name').fill('ci team-a');
    await page.getByLabel('Paths').fill('docs/../secret/**');
    await page.getByRole('button', { name: 'Create token' }).click();
    // A bad pattern is named at the field, nothing is created.
    await page.getByText(/segments "\." and "\.\." are not allowed/).waitFor();
    await page.getByLabel('Paths').fill('handbook/**\nrunbooks/deploy');
    const permissions = page.getByRole('group', { name: 'Permissions' });
    await permissions.getByLabel('comment').uncheck();
    await permissions.getByLabel('import').uncheck();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByRole('textbox', { name: 'New token' }).inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /ci team-a/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['handbook/**runbooks/deploy', 'read, write']),
    );

    const http = () => app.t.http();
    const bearer = `Bearer ${secret}`;
    const recent = await http().get('/api/recent').set('Authorization', bearer).expect(200);
    const slugs = recent.body.items.map((p: { slug: string }) => p.slug);
    expect(slugs.length).toBeGreaterThan(0);
    expect(
      slugs.every(
        (s: string) => s === 'handbook' || s.startsWith('handbook/') || s === 'runbooks/deploy',
      ),
    ).toBe(true);
    await http()
      .post('/api/pages')
      .set('Authorization', bearer)
      .send({ slug: 'elsewhere/x', title: 'x' })
      .expect(403);
  });

  it('lets the administrator turn the MCP server off and choose its tools', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'MCP', exact: true })
      .click();
    await page.getByRole('heading', { name: 'AI assistants (MCP)' }).waitFor();
    const tools = page.getByRole('group', { name: 'Tools offered' });
    await tools.getByLabel(/Create a page/).uncheck();
    await tools.getByLabel(/Move a page/).uncheck();
    await page.getByRole('button', { name: 'Save MCP settings' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await app.as.admin.get('/api/mcp/settings').expect(200);
    expect(saved.body.enabled).toBe(true);
    expect(saved.body.tools).not.toContain('create_page');
    expect(saved.body.tools).not.toContain('move_page');
    expect(saved.body.tools).toContain('read_page');

    await page.getByLabel('MCP server on').uncheck();
    await page.getByRole('button', { name: 'Save MCP settings' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await app.as.admin.get('/api/mcp/settings').expect(200)).body.enabled).toBe(false);
    const token = await app.as.editor.withToken();
    await token
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(404);
    await page.reload();
    await page.getByRole('heading', { name: 'AI assistants (MCP)' }).waitFor();
    expect(await page.getByLabel('MCP server on').isChecked()).toBe(false);
    expect(await tools.getByLabel(/Create a page/).isChecked()).toBe(false);
    expect(await tools.getByLabel(/Read a page/).isChecked()).toBe(true);
  });
});
