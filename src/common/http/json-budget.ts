import { INestApplication, SetMetadata } from '@nestjs/common';
import { json, RequestHandler, Router } from 'express';
import type { IncomingMessage } from 'node:http';
import { Problem } from '../problems/problem';
import { inspectRoutes } from './route-inventory';

/**
 * What a JSON request body may cost before kb parses and validates it: its size in bytes, how
 * deeply it nests and how many members it has (object members and array elements of every
 * level, counted together). Checked on the raw bytes in one linear pass, before JSON.parse and
 * the validation pipe, so an anonymous client cannot make either work for long.
 */
export interface JsonBudget {
  maxBytes: number;
  maxDepth: number;
  maxMembers: number;
}

/** The budget of a route that declares none (every DTO route needs 3 levels and ~700 members). */
export const DEFAULT_JSON_DEPTH = 32;
export const DEFAULT_JSON_MEMBERS = 1_000;

const JSON_BUDGET = 'kb:jsonBudget';

/** Declares a route's own JSON body budget; what it leaves out is the default. */
export const JsonBodyBudget = (budget: Partial<JsonBudget>): MethodDecorator =>
  SetMetadata(JSON_BUDGET, budget);

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function tooDeep(limit: number): Problem {
  return new Problem(400, 'json_too_deep', `The JSON body nests more than ${limit} levels deep.`, {
    limit,
  });
}

function tooManyMembers(limit: number): Problem {
  return new Problem(
    413,
    'too_many_members',
    `The JSON body has more than ${limit} members (object members and array elements); this route uses fewer.`,
    { limit },
  );
}

/**
 * Throws 400 `json_too_deep` or 413 `too_many_members` as soon as the raw body passes the
 * budget. UTF-8 multi-byte sequences never contain ASCII bytes, so a byte scan sees the same
 * structure as a parser. Malformed JSON that passes is left to JSON.parse (400 `invalid_json`).
 */
export function checkJsonBudget(body: Buffer, budget: Omit<JsonBudget, 'maxBytes'>): void {
  let depth = 0;
  let members = 0;
  let inString = false;
  let justOpened = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (isWhitespace(byte)) continue;
    if (justOpened) {
      justOpened = false;
      if (byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY) members++;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > budget.maxDepth) throw tooDeep(budget.maxDepth);
      justOpened = true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    else if (byte === COMMA) members++;
    if (members > budget.maxMembers) throw tooManyMembers(budget.maxMembers);
  }
}

export function jsonParser(budget: JsonBudget): RequestHandler {
  return json({
    limit: budget.maxBytes,
    type: ['application/json', 'application/*+json'],
    verify: (_req: IncomingMessage, _res: unknown, body: Buffer) => checkJsonBudget(body, budget),
  });
}

/**
 * Mounts the JSON body parsers: one per route that declares its own budget (matched by method
 * and path, as the router will), then the default one for every other request. Call after the
 * application is created (its controllers are known) and before it is initialised.
 */
export function mountJsonParsers(app: INestApplication, maxBytes: number): void {
  const fallback: JsonBudget = {
    maxBytes,
    maxDepth: DEFAULT_JSON_DEPTH,
    maxMembers: DEFAULT_JSON_MEMBERS,
  };
  const router = Router();
  for (const route of inspectRoutes(app)) {
    const own = Reflect.getMetadata(JSON_BUDGET, route.handlerFn) as
      Partial<JsonBudget> | undefined;
    if (!own) continue;
    const budget = { ...fallback, ...own, maxBytes: Math.min(maxBytes, own.maxBytes ?? maxBytes) };
    const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path, jsonParser(budget));
  }
  app.use(router);
  app.use(jsonParser(fallback));
}
