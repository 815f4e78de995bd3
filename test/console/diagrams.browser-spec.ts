import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newContext, signIn, useConsoleApp } from './console-app';
import { createPage } from '../support/pages';

const PIPELINE = `# Deploy pipeline

\`\`\`dot
digraph pipeline {
  rankdir=LR;
  Checkout -> Build -> Canary -> Production;
}
\`\`\`

\`\`\`mermaid
sequenceDiagram
  Alice->>Bob: Hello
\`\`\`
`;

/** DIAGRAM_SCREENSHOTS=dir writes the page view at desktop and phone width there. */
const shots = process.env.DIAGRAM_SCREENSHOTS ?? null;

/** Issue 33's diagrams as a reader and an editor see them in the console. */
describe('console: diagrams', () => {
  const h = useConsoleApp({ signIn: 'editor' });

  const diagram = (p: Page) =>
    p.locator('.kb-diagram').getByRole('img', { name: 'Graphviz diagram' });

  it('shows the Graphviz and the Mermaid SVG on the page', async () => {
    const { app, page } = h;
    await createPage(app.as.editor, 'design/pipeline', { title: 'Pipeline', content: PIPELINE });
    await page.goto('/wiki/design/pipeline');
    await diagram(page).waitFor();
    expect(await diagram(page).locator('text').allTextContents()).toEqual([
      'Checkout',
      'Build',
      'Canary',
      'Production',
    ]);
    const box = (await diagram(page).boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(20);
    const mermaid = page.locator('.kb-diagram').getByRole('img', { name: 'Mermaid diagram' });
    await mermaid.waitFor();
    expect(await mermaid.locator('text').allTextContents()).toEqual(
      expect.arrayContaining(['Alice', 'Bob', 'Hello']),
    );
    expect((await mermaid.boundingBox())!.height).toBeGreaterThan(50);
    expect(await page.locator('.kb-diagram-source').count()).toBe(0);
    if (shots) await page.screenshot({ path: join(shots, 'diagrams-desktop.png'), fullPage: true });

    // On a phone the diagram shrinks to the column instead of overflowing it.
    const phone = await newContext(h.browser, app, { width: 390, height: 844 });
    try {
      const small = await phone.newPage();
      await signIn(small, app.editor, '/wiki/design/pipeline');
      await diagram(small).waitFor();
      const phoneBox = (await diagram(small).boundingBox())!;
      expect(phoneBox.x + phoneBox.width).toBeLessThanOrEqual(390);
      if (shots)
        await small.screenshot({ path: join(shots, 'diagrams-phone.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });

  it('draws the diagram in the editor preview as it is typed', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'New page' }).first().click();
    await page.getByLabel('Title').fill('Sketch');
    await page.getByRole('textbox', { name: 'Content' }).click();
    await page.keyboard.type('```dot\ngraph { Typed -- Drawn }\n');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('.kb-diagram').getByRole('img', { name: 'Graphviz diagram' }).waitFor();
    expect(await preview.locator('.kb-diagram svg text').allTextContents()).toEqual([
      'Typed',
      'Drawn',
    ]);
  });
});
