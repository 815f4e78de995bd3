import { join } from 'node:path';
import { AppConfig, loadConfig } from '../common/config/app-config';
import {
  MediaRepository,
  createMediaStorage,
  LocalDiskMediaStorage,
  migrateMedia,
  MigrationOutcome,
} from '../media/public-api';

const OUTCOME_TEXT: Record<MigrationOutcome, string> = {
  copied: 'copied and verified',
  present: 'already in the target',
  missing: 'FAILED: missing from the local store',
  corrupt: 'FAILED: the copy does not hash to its key (local file damaged?); copy removed',
};

/**
 * `media:migrate --to s3`: copies the local media (`<KB_DATA_DIR>/media`) that the database
 * references into the bucket the S3_* variables name, printing one line per content. Returns
 * the exit code: 0 when every content is in the bucket and verified, 1 otherwise (run again
 * to resume).
 */
export async function migrateMediaToS3(
  config: AppConfig,
  media: MediaRepository,
  print: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const target = createMediaStorage(
    loadConfig({ ...env, MEDIA_STORE: 's3' }).media.store,
    config.files.dataDir,
  );
  const source = new LocalDiskMediaStorage(join(config.files.dataDir, 'media'));
  try {
    const summary = await migrateMedia(
      (after, limit) => media.listHashes(after, limit),
      source,
      target,
      ({ sha256, outcome, done }) => print(`${done}\t${sha256}\t${OUTCOME_TEXT[outcome]}`),
    );
    print(
      `media:migrate: ${summary.copied} copied, ${summary.present} already there, ${summary.failed} failed`,
    );
    return summary.failed === 0 ? 0 : 1;
  } finally {
    (target as { onModuleDestroy?: () => void }).onModuleDestroy?.();
  }
}
