import { LoggerService } from '@nestjs/common';
import { AUDIT_CONTEXT } from './audit';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/**
 * Nest's start-up chatter (a line per module, controller and mapped route) is for debugging:
 * at `info` an operator should see kb's own start line, not two hundred framework lines.
 */
const FRAMEWORK_BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * One JSON object per line (stdout by default); the level filter is set once at start. Audit
 * lines (context `audit`) are written at every level but `silent`: they are the record of who
 * did what, not diagnostics.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly level: LogLevel = 'info',
    private readonly out: NodeJS.WritableStream = process.stdout,
  ) {}

  log(message: unknown, context?: string): void {
    this.write(
      context && FRAMEWORK_BOOT_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      context,
    );
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
    const audit = context === AUDIT_CONTEXT && this.level !== 'silent';
    if (!audit && LEVELS[level] < LEVELS[this.level]) return;
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
    this.out.write(JSON.stringify(line) + '\n');
  }
}
