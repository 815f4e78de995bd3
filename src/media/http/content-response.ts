import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Problem } from '../../common/problems/problem';
import type { ByteRange } from '../storage/media-storage';

/** What a content route answers: status, headers and (except for 304 and HEAD) the bytes. */
export interface ContentResult {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  stream?: Readable;
}

/** The request headers that decide a content answer. */
export interface ContentConditions {
  method: string;
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
}

export function contentConditions(req: Request): ContentConditions {
  return {
    method: req.method,
    range: req.get('range'),
    ifNoneMatch: req.get('if-none-match'),
    ifRange: req.get('if-range'),
  };
}

export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * RFC 9110 §14: one `bytes=` range is honoured; several ranges, another unit or a malformed
 * header get the full content (allowed: a server may ignore Range). A syntactically valid
 * single range that starts past the end is unsatisfiable (416).
 */
export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: 'full' };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}

export class RangeNotSatisfiableProblem extends Problem {
  constructor(size: number) {
    super(
      416,
      'range_not_satisfiable',
      `The requested range is outside the content (${size} bytes).`,
      {},
      { 'Content-Range': `bytes */${size}` },
    );
  }
}

/** Writes a ContentResult; a stream error after the headers went out ends the connection. */
export async function sendContent(res: Response, result: ContentResult): Promise<void> {
  res.status(result.status);
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (!result.stream) {
    res.end();
    return;
  }
  try {
    await pipeline(result.stream, res);
  } catch {
    result.stream.destroy();
    res.destroy();
  }
}
