import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source';
import { Database } from './database';
import { MysqlDatabase } from './mysql-database';
import { SqliteConnection, SqliteDatabase } from './sqlite-database';

/**
 * The data source (migrations run at start) and the Database provider every repository uses,
 * chosen once by DB_TYPE. On SQLite the provider shares the connection TypeORM opened: it is
 * handed over by `prepareDatabase`, the driver's documented hook, not read from its internals.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    let sqlite: SqliteConnection | undefined;
    const options = buildDataSourceOptions(config, {
      onSqliteConnection: (connection) => (sqlite = connection),
    });
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...options, migrationsRun: true })],
      providers: [
        {
          provide: Database,
          inject: [DataSource],
          useFactory: (dataSource: DataSource): Database => {
            if (config.dbType === 'mysql') return new MysqlDatabase(dataSource);
            if (!sqlite) throw new Error('The SQLite connection was not opened');
            return new SqliteDatabase(dataSource, sqlite);
          },
        },
      ],
      exports: [Database],
    };
  }
}
