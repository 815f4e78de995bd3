import {
  DynamicModule,
  MiddlewareConsumer,
  Module,
  NestModule,
  RequestMethod,
} from '@nestjs/common';
import { ConsoleMiddleware } from './console.middleware';
import { CONSOLE_DIR, DEFAULT_CONSOLE_DIR } from './console.tokens';

/**
 * The browser console: kb serves its built files itself, so `npm start` is the whole set-up.
 * The console calls only the public API; this module adds no route of its own.
 */
@Module({})
export class ConsoleModule implements NestModule {
  static register(dir = DEFAULT_CONSOLE_DIR): DynamicModule {
    return {
      module: ConsoleModule,
      providers: [{ provide: CONSOLE_DIR, useValue: dir }, ConsoleMiddleware],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(ConsoleMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
