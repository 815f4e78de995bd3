import { join } from 'node:path';

/** Injection token: the folder holding the built console (index.html, assets/). */
export const CONSOLE_DIR = Symbol('CONSOLE_DIR');

/** dist/console/public from src/console (tests) and from dist/console (built) alike. */
export const DEFAULT_CONSOLE_DIR = join(__dirname, '..', '..', 'dist', 'console', 'public');
