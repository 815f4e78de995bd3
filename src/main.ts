import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { UsersService } from './auth/users.service';
import { ConfigError, loadConfig } from './common/config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await createApp(config);
  await app.get(UsersService).ensureBootstrapAdmin();
  // Longer than a load balancer's idle timeout (often 60 s), so it never reuses a closed socket.
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await app.listen(config.port, config.host);
  new Logger('Main').log({
    msg: `kb listening on http://${config.host}:${config.port}`,
    dbType: config.dbType,
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
