import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createConnection } from 'mysql2/promise';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/common/config/app-config';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { DataSource } from 'typeorm';
import { DB_TYPE } from '../support/test-app';

/**
 * An upgrade of every instance at once: three kb apps start together on one empty MariaDB
 * database. They take turns at the migration lock, so every app starts and each migration is
 * applied and recorded exactly once (without the lock two of them create the same tables).
 */
(DB_TYPE === 'mysql' ? describe : describe.skip)(
  'migrations, several instances starting at once',
  () => {
    let database: TestDatabase;
    const dirs: string[] = [];
    const apps: INestApplication[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('start together on an empty database, each migration applied once', async () => {
      const start = () => {
        const dir = mkdtempSync(join(tmpdir(), 'kb-migrate-'));
        dirs.push(dir);
        return createApp(
          loadConfig({
            KB_DATA_DIR: dir,
            DB_TYPE: 'mysql',
            DATABASE_URL: database.url,
            LOG_LEVEL: 'silent',
            REVIEW_CHECK_INTERVAL_SECONDS: '0',
          }),
        );
      };
      const started = await Promise.allSettled([start(), start(), start()]);
      for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
      expect(started.filter((r) => r.status === 'rejected')).toEqual([]);

      const connection = await createConnection(database.url);
      try {
        const [rows] = await connection.query(
          'SELECT name, COUNT(*) AS n FROM kb_migrations GROUP BY name HAVING COUNT(*) > 1',
        );
        expect(rows).toEqual([]);
        const [[{ n }]] = (await connection.query('SELECT COUNT(*) AS n FROM kb_migrations')) as [
          { n: number }[],
          unknown,
        ];
        const migrations = apps[0].get(DataSource).migrations.length;
        expect(Number(n)).toBe(migrations);
      } finally {
        await connection.end();
      }
    });
  },
);
