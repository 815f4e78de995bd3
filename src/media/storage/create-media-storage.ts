import { join } from 'node:path';
import type { MediaStoreConfig } from '../../common/config/media-config';
import { LocalDiskMediaStorage } from './local-disk-storage';
import type { MediaStorage } from './media-storage';

/** The store MEDIA_STORE names; the AWS SDK is loaded only when media live in S3. */
export function createMediaStorage(store: MediaStoreConfig, dataDir: string): MediaStorage {
  if (store.kind === 'local') {
    return new LocalDiskMediaStorage(join(dataDir, 'media'));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3MediaStorage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3MediaStorage(store);
}
