import { join } from 'node:path';
import type { AppConfig } from '../../common/config/app-config';
import { LocalDiskMediaStorage } from './local-disk-storage';
import type { MediaStorage } from './media-storage';

/** The store MEDIA_STORE names; the AWS SDK is loaded only when media live in S3. */
export function createMediaStorage(config: AppConfig): MediaStorage {
  if (config.mediaStore.kind === 'local') {
    return new LocalDiskMediaStorage(join(config.dataDir, 'media'));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3MediaStorage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3MediaStorage(config.mediaStore);
}
