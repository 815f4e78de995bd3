// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import { readdirSync } from 'node:fs';

/** The folders directly in `dir` (modules of the server, features of the console). */
const foldersIn = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * The floors and walls docs/architecture.md draws, kept by import/no-restricted-paths:
 * - a server module reaches another only through its public-api.ts (its Nest module, exported
 *   services, DTOs, pure helpers) or public-sql.ts (SQL fragments, worker-safe);
 * - common/ imports no module; src/*.ts (main, app.module, app.factory) compose them all;
 * - a console feature imports no other feature; features/ and app/ sit on components/, lib/
 *   and api/, which import neither (as bulletproof-react).
 * test/lint/boundaries.spec.ts proves each wall stops a deliberate violation.
 */
function boundaryZones() {
  const modules = foldersIn('./src/').filter((name) => name !== 'common');
  const features = foldersIn('./console/src/features/');
  const shared = ['./console/src/components', './console/src/lib', './console/src/api'];
  return [
    ...modules.map((name) => ({
      target: modules.filter((other) => other !== name).map((other) => `./src/${other}`),
      from: `./src/${name}`,
      except: ['./public-api.ts', './public-sql.ts'],
      message: `Reach the ${name} module through src/${name}/public-api.ts (or public-sql.ts); docs/architecture.md.`,
    })),
    // Inside pages, the floors of docs/architecture.md: model/ (the page's types and pure
    // rules) under rendering/ (Markdown, pure CPU work) under store/ (SQL) under the use cases.
    // No arrow climbs back up; test/lint/page-floors.spec.ts also keeps pages free of circles.
    {
      target: './src/pages/model',
      from: './src/pages',
      except: ['./model'],
      message: 'pages/model is the floor of pages: it imports nothing else of pages.',
    },
    {
      target: './src/pages/rendering',
      from: './src/pages',
      except: ['./model', './rendering'],
      message: 'pages/rendering sits on pages/model only (no store, no use case).',
    },
    {
      target: './src/pages/store',
      from: './src/pages',
      except: ['./model', './rendering', './store'],
      message: 'pages/store sits on pages/model and rendering only (no use case, no DTO).',
    },
    {
      // Migrations excepted: one may fill a new column with a module's pure function, through
      // that module's public-sql.ts (the zones above keep it to that file).
      target: foldersIn('./src/common/')
        .map((name) => `./src/common/${name}`)
        .filter((path) => path !== './src/common/database')
        .concat(
          foldersIn('./src/common/database/')
            .filter((name) => name !== 'migrations')
            .map((name) => `./src/common/database/${name}`),
          './src/common/database/*.ts',
          './src/common/*.ts',
        ),
      from: modules.map((name) => `./src/${name}`),
      message: 'common/ is the floor under every module and imports none (docs/architecture.md).',
    },
    {
      target: './src/common/database/migrations',
      from: modules.map((name) => `./src/${name}`),
      except: ['./public-sql.ts'],
      message: 'A migration uses a module only through its public-sql.ts (pure, no Nest).',
    },
    ...features.map((name) => ({
      target: `./console/src/features/${name}`,
      from: './console/src/features',
      except: [`./${name}`],
      message: `A console feature imports no other feature: move what ${name} shares to components/, lib/ or api/.`,
    })),
    {
      target: './console/src/features',
      from: './console/src/app',
      message: 'Features sit under app/: the router and layout import features, not the reverse.',
    },
    {
      target: shared,
      from: ['./console/src/features', './console/src/app'],
      message: 'components/, lib/ and api/ are shared by every feature and import none.',
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'bench/.work/**',
      'eslint.config.mjs',
      'console/src/api/kb-api.d.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  { files: ['scripts/**', 'bench/**', 'test/**'], rules: { 'no-console': 'off' } },
  {
    files: ['src/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: { 'import/no-restricted-paths': ['error', { zones: boundaryZones() }] },
  },
  {
    // The console runs in the browser; hooks follow React's rules.
    files: ['console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Plain Node scripts (CommonJS): scripts/, bench/, jest configs.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain Node scripts that are ES modules (scripts/extract-text.mjs imports pdf.js).
    files: ['scripts/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },
);
