import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { parseArgs } from 'node:util';
import { AuthModule } from './auth/auth.module';
import { UsersService } from './auth/users.service';
import { isRole } from './common/auth/roles';
import { AppConfig, ConfigError, loadConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { buildDataSourceOptions } from './common/database/data-source';
import { JsonLogger } from './common/logging/json-logger';
import { Problem } from './common/problems/problem';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';

const USAGE = `Usage: npm run cli -- <command> [options]
  user:create --username NAME --password PASS --role admin|editor|reader [--groups a,b] [--display-name TEXT]
  user:set-password --username NAME --password PASS
  user:list`;

function cliModule(config: AppConfig) {
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      TypeOrmModule.forRoot({ ...buildDataSourceOptions(config), migrationsRun: true }),
      EventEmitterModule.forRoot(),
      ScheduleModule.forRoot(),
      AuthModule,
    ],
  })
  class CliModule {}
  return CliModule;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      groups: { type: 'string' },
      'display-name': { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(cliModule(config), { logger: new JsonLogger('warn') });
  try {
    const users = app.get(UsersService);
    switch (command) {
      case 'user:create': {
        if (!values.username || !values.password || !isRole(values.role)) {
          console.error(USAGE);
          return 64;
        }
        const user = await users.create({
          username: values.username,
          password: values.password,
          role: values.role,
          displayName: values['display-name'],
          groups: values.groups ? values.groups.split(',').map((g) => g.trim()).filter(Boolean) : undefined,
        });
        console.log(`created ${user.role} ${user.username} (${user.id})`);
        return 0;
      }
      case 'user:set-password': {
        if (!values.username || !values.password) {
          console.error(USAGE);
          return 64;
        }
        await users.setPassword(values.username, values.password);
        console.log(`password changed for ${values.username.toLowerCase()}; their sessions were ended`);
        return 0;
      }
      case 'user:list': {
        let cursor: Record<string, unknown> | null = null;
        do {
          const page = await users.list({ limit: 100, cursor });
          for (const u of page.items) {
            console.log([u.username, u.role, u.disabled ? 'disabled' : 'active', u.groups.join(',') || '-'].join('\t'));
          }
          cursor = page.nextCursor ? JSON.parse(Buffer.from(page.nextCursor, 'base64url').toString()) : null;
        } while (cursor);
        return 0;
      }
      default:
        console.error(USAGE);
        return 64;
    }
  } finally {
    await app.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof Problem) console.error(`${error.code}: ${error.detail}${error.extensions.errors ? ' ' + JSON.stringify(error.extensions.errors) : ''}`);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
