import { Abstract, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { AuthUser } from '../../src/common/auth/auth-user';
import type { Role } from '../../src/common/auth/roles';
import { loadConfig } from '../../src/common/config/app-config';
import { UsersService } from '../../src/auth/users.service';
import { resetDatabase, testEnv } from './test-app';

/**
 * The service tier (test/service): kb's modules on a real SQLite database in a temporary folder,
 * migrations run as at start, but no HTTP server, no middleware and no guards. A spec calls a use
 * case's service as a controller would, with an AuthUser, and checks what it answers and what
 * the database holds afterwards. Cheaper than an e2e spec by the HTTP layer and supertest.
 */
export interface ServiceContext {
  get<T>(type: Type<T> | Abstract<T>): T;
  dataSource: DataSource;
  /** A new user of `role` (and `groups`), as the AuthUser a session of theirs would carry. */
  user(role: Role, groups?: string[]): Promise<AuthUser>;
  /** Deletes every row of every table (the schema stays). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function createServiceContext(
  env: Record<string, string> = {},
): Promise<ServiceContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-service-'));
  const config = loadConfig(testEnv(dataDir, { DB_TYPE: 'sqlite', ...env }));
  const context: INestApplicationContext = await NestFactory.createApplicationContext(
    AppModule.register(config),
    { logger: false, abortOnError: false },
  );
  const get = <T>(type: Type<T> | Abstract<T>): T =>
    context.get<T>(type as Type<T>, { strict: false });
  return {
    get,
    dataSource: get(DataSource),
    user: async (role, groups = []) => {
      const username = `${role}${++counter}`;
      const { body } = await get(UsersService).create({
        username,
        password: `pw-${username}-secret`,
        role,
        groups,
      });
      return {
        id: body.id,
        username: body.username,
        displayName: body.displayName,
        role,
        groups,
        via: 'session',
      };
    },
    reset: () => resetDatabase(get(DataSource)),
    close: async () => {
      await context.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
