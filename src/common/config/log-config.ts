import { Env, OneOf } from './env-schema';

export class LogConfig {
  @Env('LOG_LEVEL') @OneOf(['debug', 'info', 'warn', 'error', 'silent']) level:
    'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';
}
