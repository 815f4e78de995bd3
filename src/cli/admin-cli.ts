import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { parseArgs } from 'node:util';
import {
  AccountsService,
  AuthModule,
  CreateGroupDto,
  CreateUserDto,
  UpdateUserDto,
  GroupsService,
  UsersService,
} from '../auth/public-api';
import { PasswordInputError, readPassword } from './read-password';
import { AppConfig, ConfigError, loadConfig } from '../common/config/app-config';
import { ConfigModule } from '../common/config/config.module';
import { DatabaseModule } from '../common/database/database.module';
import { DatabaseSetupError, prepareDatabase } from '../common/database/database-preflight';
import { OutboxModule } from '../common/events/outbox.module';
import { decodeCursor } from '../common/http/pagination';
import { JsonLogger } from '../common/logging/json-logger';
import { MailModule } from '../common/mail/mail.module';
import { FieldProblems, Problem } from '../common/problems/problem';
import { flattenValidationErrors } from '../common/problems/validation';
import { MediaRepository } from '../media/public-api';
import { migrateMediaToS3 } from './media-migrate';
import { ADMIN_USAGE as USAGE } from './usage';

const ARGV_PASSWORD = `kb: --password is not accepted: other users can read a command line (ps) and the
shell keeps it in its history. Type the password at the prompt, or pipe it:
  printf '%s\\n' "$PASSWORD" | npm run cli -- user:set-password --username ada`;

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

/** Command output goes to stdout; the logger (audit lines included) and errors use stderr. */
function print(line: string): void {
  process.stdout.write(line + '\n');
}

/** A usage error: the message and the usage on stderr, exit 64 (EX_USAGE). */
class UsageError extends Error {}

function cliModule(config: AppConfig) {
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      DatabaseModule.forRoot(config),
      EventEmitterModule.forRoot(),
      OutboxModule,
      // AuthModule's invitations and resets mail through the (global) Mailer.
      MailModule,
      AuthModule,
    ],
    providers: [MediaRepository],
  })
  class CliModule {}
  return CliModule;
}

const OPTIONS = {
  username: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  groups: { type: 'string' },
  'display-name': { type: 'string' },
  name: { type: 'string' },
  to: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

interface Context {
  values: Values;
  users: UsersService;
  groups: GroupsService;
  accounts: AccountsService;
  config: AppConfig;
  media: MediaRepository;
}

function required(values: Values, name: 'username' | 'role' | 'name'): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

async function password(): Promise<string> {
  const typed = await readPassword(process.stdin, process.stderr);
  const { password } = await validated(UpdateUserDto, { password: typed });
  return password!;
}

const COMMANDS: Record<string, (c: Context) => Promise<number | void>> = {
  'user:create': async ({ values, users }) => {
    const fields = {
      username: required(values, 'username'),
      role: required(values, 'role'),
      displayName: values['display-name'],
      groups: values.groups
        ?.split(',')
        .map((g) => g.trim())
        .filter(Boolean),
    };
    // Report a bad name or role before asking for a password (which is checked right after).
    await validated(CreateUserDto, { ...fields, password: 'a placeholder of valid length' });
    const { body: user } = await users.create(
      await validated(CreateUserDto, { ...fields, password: await password() }),
    );
    print(`created ${user.role} ${user.username} (${user.id})`);
  },
  'user:set-password': async ({ values, users }) => {
    const user = await users.getByUsername(required(values, 'username'));
    await users.update(user.id, { password: await password() }, null);
    print(`password changed for ${user.username}; their sessions were ended`);
  },
  'user:role': async ({ values, users }) => {
    const user = await users.getByUsername(required(values, 'username'));
    const { role } = await validated(UpdateUserDto, { role: required(values, 'role') });
    await users.update(user.id, { role }, null);
    print(`${user.username} is now ${role}`);
  },
  'user:disable': async ({ values, users }) => {
    const user = await users.getByUsername(required(values, 'username'));
    await users.update(user.id, { disabled: true }, null);
    print(`disabled ${user.username}; their sessions were ended and their tokens stop working`);
  },
  'user:enable': async ({ values, users }) => {
    const user = await users.getByUsername(required(values, 'username'));
    await users.update(user.id, { disabled: false }, null);
    print(`enabled ${user.username}`);
  },
  'user:unlock': async ({ values, users, accounts }) => {
    const user = await users.getByUsername(required(values, 'username'));
    await accounts.unlock(user, null);
    print(`unlocked ${user.username}: failed sign-ins no longer hold the account back`);
  },
  'user:list': async ({ users }) => {
    let cursor: Record<string, unknown> | null = null;
    do {
      const page = await users.list({ limit: 100, cursor });
      for (const u of page.items) {
        print(
          [u.username, u.role, u.disabled ? 'disabled' : 'active', u.groups.join(',') || '-'].join(
            '\t',
          ),
        );
      }
      cursor = page.nextCursor ? decodeCursor(page.nextCursor) : null;
    } while (cursor);
  },
  'media:migrate': async ({ values, config, media }) => {
    if (values.to !== 's3') throw new UsageError('--to s3 is the one target');
    return migrateMediaToS3(config, media, print);
  },
  'group:create': async ({ values, groups }) => {
    const { name } = await validated(CreateGroupDto, { name: values.name });
    const group = await groups.create(name);
    print(`created group ${group.name} (${group.id})`);
  },
};

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const run = COMMANDS[command ?? ''];
  let values: Values;
  try {
    values = parseArgs({ args: rest, options: OPTIONS, strict: true }).values;
  } catch (error) {
    console.error(`kb: ${(error as Error).message}\n${USAGE}`);
    return 64;
  }
  if (!run) {
    console.error(USAGE);
    return 64;
  }
  if (values.password !== undefined) {
    console.error(ARGV_PASSWORD);
    return 64;
  }
  const config = loadConfig();
  await prepareDatabase(config);
  const app = await NestFactory.createApplicationContext(cliModule(config), {
    logger: new JsonLogger('warn', process.stderr),
  });
  try {
    const code = await run({
      values,
      users: app.get(UsersService),
      groups: app.get(GroupsService),
      accounts: app.get(AccountsService),
      config,
      media: app.get(MediaRepository),
    });
    return code ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`kb: ${error.message}\n${USAGE}`);
      return 64;
    }
    throw error;
  } finally {
    await app.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DatabaseSetupError) {
      console.error(error.message);
      process.exit(78);
    } else if (error instanceof PasswordInputError) console.error(`kb: ${error.message}`);
    else if (error instanceof Problem)
      console.error(
        `${error.code}: ${error.detail}${error.extensions.errors ? ' ' + JSON.stringify(error.extensions.errors) : ''}`,
      );
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
