import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Request, Response } from 'express';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
};

/** One path segment of safe characters: no `..`, no slashes, no encoded tricks. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

/** Hashed build output never changes under its name; everything else is revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Encodings precompressed at build time (scripts/build-steps.js), best first. */
const ENCODINGS = [
  { token: 'br', suffix: '.br' },
  { token: 'gzip', suffix: '.gz' },
] as const;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function accepts(req: Request, token: string): boolean {
  const header = req.get('accept-encoding') ?? '';
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return name.trim() === token && (!q || Number(q.slice(2)) > 0);
  });
}

/** The file for `name` inside `dir`, or null when the name is unsafe or nothing is there. */
export async function findFile(dir: string, name: string): Promise<string | null> {
  if (!FILE_NAME.test(name) || name.includes('..')) return null;
  const path = join(dir, name);
  return (await isFile(path)) ? path : null;
}

/**
 * Streams a static file, or its precompressed sibling (`.br`, `.gz`) when the client takes
 * that encoding; HEAD answers the headers only.
 */
export async function sendFile(
  req: Request,
  res: Response,
  path: string,
  cacheControl: string,
): Promise<void> {
  let file = path;
  let encoding: string | undefined;
  const compressible = /\.(js|css|svg|json|map|html)$/.test(path);
  if (compressible) {
    res.setHeader('Vary', 'Accept-Encoding');
    for (const candidate of ENCODINGS) {
      if (accepts(req, candidate.token) && (await isFile(path + candidate.suffix))) {
        file = path + candidate.suffix;
        encoding = candidate.token;
        break;
      }
    }
  }
  const { size } = await stat(file);
  res.status(200);
  res.setHeader('Content-Type', TYPES[extname(path)] ?? 'application/octet-stream');
  res.setHeader('Content-Length', String(size));
  res.setHeader('Cache-Control', cacheControl);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file);
    stream.once('error', reject);
    res.once('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}

/** index.html as built; read on each request (it is small, and a rebuild must show at once). */
export function readIndex(dir: string): Promise<string> {
  return readFile(join(dir, 'index.html'), 'utf8');
}
