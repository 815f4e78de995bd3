import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConfigGroup, configToken } from './app-config';

/** Provides the whole configuration (APP_CONFIG) and each of its groups (`@InjectConfig`). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const groups: Provider[] = (Object.keys(config) as ConfigGroup[]).map((group) => ({
      provide: configToken(group),
      useValue: config[group],
    }));
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, ...groups],
      exports: [APP_CONFIG, ...groups.map((p) => (p as { provide: string }).provide)],
    };
  }
}
