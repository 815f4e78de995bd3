import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source';

/** Used by the TypeORM CLI (`npm run migration:run`, `migration:generate`). */
export default new DataSource(buildDataSourceOptions(loadConfig()));
