import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AuthModule } from './auth/auth.module';
import { UsersService } from './auth/users.service';
import { isRole } from './common/auth/roles';
import { AppConfig, ConfigError, loadConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { decodeCursor } from './common/http/pagination';
import { JsonLogger } from './common/logging/json-logger';
import { FieldProblems, Problem } from './common/problems/problem';
import { flattenValidationErrors } from './common/problems/validation';
import { CreateGroupDto, CreateUserDto, UpdateUserDto } from './auth/dto/user.dto';
import { GroupsService } from './auth/groups.service';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';

const USAGE = `Usage: npm run cli -- <command> [options]
  user:create --username NAME --password PASS --role admin|editor|reader [--groups a,b] [--display-name TEXT]
  user:set-password --username NAME --password PASS
  user:list
  group:create --name NAME`;

/** The same rules as the HTTP API: a bad value is reported like a 422 field problem. */
async function validated<T extends object>(
  type: new () => T,
  plain: Record<string, unknown>,
): Promise<T> {
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  const instance = plainToInstance(type, defined);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw new FieldProblems(flattenValidationErrors(errors));
  return instance;
}

/** Command output goes to stdout (the logger and errors use stderr). */
function print(line: string): void {
  process.stdout.write(line + '\n');
}

function cliModule(config: AppConfig) {
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      DatabaseModule.forRoot(config),
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
      name: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(cliModule(config), {
    logger: new JsonLogger('warn'),
  });
  try {
    const users = app.get(UsersService);
    switch (command) {
      case 'user:create': {
        if (!values.username || !values.password || !isRole(values.role)) {
          console.error(USAGE);
          return 64;
        }
        const input = await validated(CreateUserDto, {
          username: values.username,
          password: values.password,
          role: values.role,
          displayName: values['display-name'],
          groups: values.groups
            ? values.groups
                .split(',')
                .map((g) => g.trim())
                .filter(Boolean)
            : undefined,
        });
        const user = await users.create(input);
        print(`created ${user.role} ${user.username} (${user.id})`);
        return 0;
      }
      case 'user:set-password': {
        if (!values.username || !values.password) {
          console.error(USAGE);
          return 64;
        }
        const { password } = await validated(UpdateUserDto, { password: values.password });
        await users.setPassword(values.username, password!);
        print(`password changed for ${values.username.toLowerCase()}; their sessions were ended`);
        return 0;
      }
      case 'user:list': {
        let cursor: Record<string, unknown> | null = null;
        do {
          const page = await users.list({ limit: 100, cursor });
          for (const u of page.items) {
            print(
              [
                u.username,
                u.role,
                u.disabled ? 'disabled' : 'active',
                u.groups.join(',') || '-',
              ].join('\t'),
            );
          }
          cursor = page.nextCursor ? decodeCursor(page.nextCursor) : null;
        } while (cursor);
        return 0;
      }
      case 'group:create': {
        const { name } = await validated(CreateGroupDto, { name: values.name });
        const group = await app.get(GroupsService).create(name);
        print(`created group ${group.name} (${group.id})`);
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
    else if (error instanceof Problem)
      console.error(
        `${error.code}: ${error.detail}${error.extensions.errors ? ' ' + JSON.stringify(error.extensions.errors) : ''}`,
      );
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
