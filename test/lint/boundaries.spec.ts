import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The module walls of docs/architecture.md are kept by `npm run lint`
 * (import/no-restricted-paths in eslint.config.mjs): each case lints one import as a file at
 * that place would hold it, with ESLint's Node API and the project's own configuration. ESLint
 * loads its configuration as an ES module, which Jest's module sandbox cannot, so the cases are
 * linted in one child process.
 */
const root = join(__dirname, '..', '..');
const RULE = 'import/no-restricted-paths';

const LINT_CASES = `
import { ESLint } from 'eslint';
import { join } from 'node:path';
const cases = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const [file, specifier] of cases) {
  const code = "import * as imported from '" + specifier + "';\\nexport const used = imported;\\n";
  const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), file) });
  out.push(result.messages.filter((m) => m.ruleId === '${RULE}').map((m) => m.message));
}
console.log(JSON.stringify(out));
`;

const refused: [string, string, RegExp][] = [
  ['src/pages/lint-probe.ts', '../auth/users.service', /src\/auth\/public-api\.ts/],
  ['src/pages/store/lint-probe.ts', '../../media/media.repository', /src\/media\/public-api/],
  ['src/mcp/lint-probe.ts', '../pages/pages.service', /src\/pages\/public-api/],
  ['src/common/lint-probe.ts', '../pages/public-api', /common\/ is the floor/],
  ['src/common/database/lint-probe.ts', '../../pages/public-sql', /common\/ is the floor/],
  ['src/common/http/lint-probe.ts', '../../auth/public-sql', /common\/ is the floor/],
  [
    'src/common/database/migrations/lint-probe.ts',
    '../../../pages/public-api',
    /only through its public-sql/,
  ],
  [
    'src/common/database/migrations/lint-probe.ts',
    '../../../pages/model/search/search-grams',
    /only through its public-sql/,
  ],
  ['src/pages/model/lint-probe.ts', '../store/page-rows', /pages\/model is the floor/],
  ['src/pages/model/lint-probe.ts', '../pages.service', /pages\/model is the floor/],
  ['src/pages/rendering/lint-probe.ts', '../store/page-rows', /rendering sits on pages\/model/],
  ['src/pages/rendering/lint-probe.ts', '../site-variables.service', /rendering sits on/],
  ['src/pages/store/lint-probe.ts', '../page-writer.service', /store sits on pages\/model/],
  ['src/pages/store/lint-probe.ts', '../dto/page.dto', /store sits on pages\/model/],
  [
    'console/src/features/editor/lint-probe.ts',
    '../drafts/components/drafts-screen',
    /feature imports no other feature/,
  ],
  ['console/src/features/pages/lint-probe.ts', '../../app/router', /Features sit under app/],
  [
    'console/src/components/lint-probe.tsx',
    '../features/pages/components/page-screen',
    /shared by every feature/,
  ],
  ['console/src/lib/lint-probe.ts', '../app/session', /shared by every feature/],
];

const allowed: [string, string][] = [
  ['src/pages/lint-probe.ts', '../auth/public-api'],
  ['src/pages/store/lint-probe.ts', '../../auth/public-sql'],
  ['src/pages/lint-probe.ts', './model/page-columns'],
  ['src/pages/store/lint-probe.ts', '../model/page-state'],
  ['src/pages/store/lint-probe.ts', '../rendering/link-occurrences'],
  ['src/pages/rendering/lint-probe.ts', '../model/slug'],
  ['src/pages/lint-probe.ts', './model/page-shapes'],
  ['src/import/lint-probe.ts', '../common/database/database'],
  ['src/common/database/migrations/lint-probe.ts', '../../../pages/public-sql'],
  ['src/lint-probe.ts', './pages/pages.module'],
  ['console/src/features/editor/lint-probe.ts', '../../api/drafts'],
  ['console/src/features/editor/lint-probe.ts', './model/merge'],
  ['console/src/app/lint-probe.ts', '../features/pages/components/page-screen'],
];

describe('npm run lint keeps the module boundaries', () => {
  let messages: string[][];

  beforeAll(() => {
    const cases = [...refused.map(([file, specifier]) => [file, specifier]), ...allowed];
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', LINT_CASES, JSON.stringify(cases)],
      { cwd: root, encoding: 'utf8' },
    );
    messages = JSON.parse(output) as string[][];
  }, 120_000);

  it.each(refused.map((c, i) => [...c, i] as const))(
    'refuses %s importing %s',
    (_file, _specifier, message, i) => {
      expect(messages[i]).toEqual([expect.stringMatching(message)]);
    },
  );

  it.each(allowed.map((c, i) => [...c, refused.length + i] as const))(
    'lets %s import %s',
    (file, specifier, i) => {
      // An import that resolves to no file would pass unchecked: each probe names a real one.
      const target = join(root, dirname(file), specifier);
      expect(['.ts', '.tsx'].some((ext) => existsSync(target + ext))).toBe(true);
      expect(messages[i]).toEqual([]);
    },
  );
});
