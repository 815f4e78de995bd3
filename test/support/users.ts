import request from 'supertest';
import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/common/auth/roles';
import { UsersService } from '../../src/auth/users.service';
import { GroupsService } from '../../src/auth/groups.service';
import type { TestApp } from './test-app';

export const TEST_ORIGIN_HEADER = 'Origin';

export interface TestUser {
  id: string;
  username: string;
  password: string;
  role: Role;
}

let counter = 0;

/** Creates a user straight through the service (no HTTP), with a unique name. */
export async function createUser(
  t: TestApp,
  role: Role,
  options: { groups?: string[]; username?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? `${role}${++counter}${randomBytes(2).toString('hex')}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const { body: user } = await t
    .get(UsersService)
    .create({ username, password, role, groups: options.groups });
  return { id: user.id, username: user.username, password, role };
}

export async function createGroup(t: TestApp, name: string): Promise<void> {
  await t.get(GroupsService).create(name);
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

/**
 * Sends requests as one caller: with the session cookie (and this site's Origin on unsafe
 * methods, as a browser would) or with a bearer token, or anonymously.
 */
export class Client {
  constructor(
    private readonly t: TestApp,
    readonly auth: { cookie?: string; bearer?: string } = {},
    readonly user?: TestUser,
  ) {}

  request(method: Method, path: string): request.Test {
    const test = this.t.http()[method](path);
    if (this.auth.cookie) {
      test.set('Cookie', this.auth.cookie);
      if (method !== 'get' && method !== 'head') test.set('Sec-Fetch-Site', 'same-origin');
    }
    if (this.auth.bearer) test.set('Authorization', `Bearer ${this.auth.bearer}`);
    return test;
  }

  get(path: string): request.Test {
    return this.request('get', path);
  }
  post(path: string): request.Test {
    return this.request('post', path);
  }
  put(path: string): request.Test {
    return this.request('put', path);
  }
  patch(path: string): request.Test {
    return this.request('patch', path);
  }
  delete(path: string): request.Test {
    return this.request('delete', path);
  }
  head(path: string): request.Test {
    return this.request('head', path);
  }

  /** A client for the same user authenticated with a fresh personal access token instead. */
  async withToken(body: Record<string, unknown> = {}): Promise<Client> {
    const res = await this.post('/api/tokens')
      .send({ name: 'test token', ...body })
      .expect(201);
    return new Client(this.t, { bearer: res.body.token as string }, this.user);
  }
}

export function anonymous(t: TestApp): Client {
  return new Client(t);
}

/** Signs `user` in with a browser session; `userAgent` names the browser the session records. */
export async function login(
  t: TestApp,
  user: TestUser,
  options: { userAgent?: string } = {},
): Promise<Client> {
  const req = t.http().post('/auth/login');
  if (options.userAgent) req.set('User-Agent', options.userAgent);
  const res = await req.send({ username: user.username, password: user.password }).expect(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('kb_session='));
  if (!cookie) throw new Error('login set no session cookie');
  return new Client(t, { cookie }, user);
}

/** Creates a user with that role and signs them in with a browser session. */
export async function signedIn(
  t: TestApp,
  role: Role,
  options: { groups?: string[] } = {},
): Promise<Client> {
  return login(t, await createUser(t, role, options));
}
