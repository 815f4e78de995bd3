import { LoggerService } from '@nestjs/common';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** One JSON object per line on stdout; the level filter is set once at start. */
export class JsonLogger implements LoggerService {
  constructor(private readonly level: LogLevel = 'info') {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const hasStack = context !== undefined;
    this.write(
      'error',
      message,
      hasStack ? context : stackOrContext,
      hasStack ? stackOrContext : undefined,
    );
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  private write(
    level: Exclude<LogLevel, 'silent'>,
    message: unknown,
    context?: string,
    stack?: string,
  ): void {
    if (LEVELS[level] < LEVELS[this.level]) return;
    // An Error's message and stack are not enumerable: spread, it would log as {}.
    const fields =
      message instanceof Error
        ? { msg: message.message, error: message.name, stack: stack ?? message.stack }
        : typeof message === 'object' && message !== null
          ? (message as Record<string, unknown>)
          : { msg: String(message) };
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      context,
      ...fields,
    };
    if (stack) line.stack = stack;
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}
