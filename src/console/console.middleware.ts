import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { consoleContentSecurityPolicy } from '../common/http/security-headers';
import { Problem } from '../common/problems/problem';
import { findFile, IMMUTABLE, REVALIDATE, sendFile } from './console-files';
import { isBrowserFallback, isConsoleRoute } from './console-routes';
import { CONSOLE_DIR } from './console.tokens';

const CSP = consoleContentSecurityPolicy();

/**
 * Serves the built console (dist/console/public): `/assets/*` (content-hashed names, cached
 * for a year), the few root files Vite copies from console/public, and index.html for every
 * console route, and for any other address a browser navigates to outside the server's roots
 * (the console says "Not found" or opens the page). Anything else falls through to the API's
 * routes, and so to its 404 problem.
 */
@Injectable()
export class ConsoleMiddleware implements NestMiddleware {
  constructor(@Inject(CONSOLE_DIR) private readonly dir: string) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    if (path.startsWith('/assets/')) {
      const file = await findFile(join(this.dir, 'assets'), path.slice('/assets/'.length));
      return file ? sendFile(req, res, file, IMMUTABLE) : next();
    }
    if (isConsoleRoute(path)) return this.sendIndex(req, res);
    const rootFile = /^\/[^/]+$/.test(path) ? await findFile(this.dir, path.slice(1)) : null;
    if (rootFile && !rootFile.endsWith('index.html'))
      return sendFile(req, res, rootFile, REVALIDATE);
    if (isBrowserFallback(path, req.get('accept'))) return this.sendIndex(req, res);
    next();
  }

  private async sendIndex(req: Request, res: Response): Promise<void> {
    const index = join(this.dir, 'index.html');
    if (!existsSync(index)) {
      throw new Problem(
        503,
        'console_not_built',
        'The console has not been built: run `npm run build` (npm start builds it when it is missing).',
      );
    }
    res.setHeader('Content-Security-Policy', CSP);
    await sendFile(req, res, index, REVALIDATE);
  }
}
