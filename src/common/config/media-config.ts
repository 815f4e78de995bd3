import { Env, IntRange, IsBool, IsUrlOf, OneOf, readGroup, Rule } from './env-schema';
import type { Env as EnvVars } from './env-values';

const MIB = 1024 * 1024;

/** MEDIA_STORE=s3 and its S3_* variables. */
export class S3StoreConfig {
  readonly kind = 's3';

  /** S3_ENDPOINT: unset, AWS S3 of `region`; else a MinIO/S3-compatible address. */
  @Env('S3_ENDPOINT') @IsUrlOf(['http:', 'https:']) endpoint?: string;

  @Env('S3_REGION') region = 'us-east-1';

  @Env('S3_BUCKET')
  @Rule((v?: string) =>
    v !== undefined && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v)
      ? undefined
      : `must name a bucket when MEDIA_STORE=s3, got "${v ?? ''}"`,
  )
  bucket = '';

  /** Set with its pair, or neither for the AWS default credentials (instance role, ...). */
  @Env('S3_ACCESS_KEY_ID')
  @Rule((v: string | undefined, s3: S3StoreConfig) =>
    v === undefined && s3.secretAccessKey !== undefined ? PAIR : undefined,
  )
  accessKeyId?: string;

  @Env('S3_SECRET_ACCESS_KEY')
  @Rule((v: string | undefined, s3: S3StoreConfig) =>
    v === undefined && s3.accessKeyId !== undefined ? PAIR : undefined,
  )
  secretAccessKey?: string;

  /** S3_FORCE_PATH_STYLE: `http://host/bucket/key` addressing (MinIO and most S3-compatible servers). */
  @Env('S3_FORCE_PATH_STYLE', 'bool') @IsBool() forcePathStyle = false;
}

const PAIR = 'must be set together with its pair (or neither, for the AWS default credentials)';

export type MediaStoreConfig = { kind: 'local' } | S3StoreConfig;

/** Images and attachments: where the bytes live, how large they may be, the sweep of orphans. */
export class MediaConfig {
  /** MEDIA_STORE: `<KB_DATA_DIR>/media` (local) or an S3 bucket (s3, with S3_*). */
  @Env('MEDIA_STORE') @OneOf(['local', 's3']) storeKind: 'local' | 's3' = 'local';

  /** The store MEDIA_STORE names, with its settings. */
  store: MediaStoreConfig = { kind: 'local' };

  @Env('IMAGE_MAX_BYTES', 'int') @IntRange(1, 1024 * MIB) imageMaxBytes = 10 * MIB;

  @Env('ATTACHMENT_MAX_BYTES', 'int') @IntRange(1, 4096 * MIB) attachmentMaxBytes = 50 * MIB;

  /** MEDIA_SWEEP_INTERVAL_SECONDS: how often unreferenced media and stale temp files are swept (0: only at start). */
  @Env('MEDIA_SWEEP_INTERVAL_SECONDS', 'int') @IntRange(0, 7 * 86_400) sweepIntervalSeconds = 3600;

  /** MEDIA_SWEEP_GRACE_SECONDS: a stored object or temp file younger than this is never swept. */
  @Env('MEDIA_SWEEP_GRACE_SECONDS', 'int') @IntRange(1, 30 * 86_400) sweepGraceSeconds = 3600;

  /** ATTACHMENT_TEXT_MAX_BYTES: larger attachments are left out of search (docs/search.md). */
  @Env('ATTACHMENT_TEXT_MAX_BYTES', 'int') @IntRange(1, 1024 * MIB) textMaxBytes = 25 * MIB;

  /** ATTACHMENT_TEXT_TIMEOUT_SECONDS: an extraction still running then is killed (`failed`). */
  @Env('ATTACHMENT_TEXT_TIMEOUT_SECONDS', 'int') @IntRange(1, 3600) textTimeoutSeconds = 30;

  /** ATTACHMENT_TEXT_MAX_CHARS: the text kept per attachment, at most (the rest is cut). */
  @Env('ATTACHMENT_TEXT_MAX_CHARS', 'int') @IntRange(1000, 50_000_000) textMaxChars = 1_000_000;
}

export function mediaConfig(env: EnvVars): MediaConfig {
  const media = readGroup(MediaConfig, env);
  if (media.storeKind === 's3') media.store = readGroup(S3StoreConfig, env);
  return media;
}
