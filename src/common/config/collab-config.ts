import { Env, IntRange, IsBool } from './env-schema';

/** Live co-editing at `/collab` (COLLAB_*): docs/collab.md. */
export class CollabConfig {
  /** Seconds of quiet after which the shared text is written as a revision. */
  @Env('COLLAB_SAVE_IDLE_SECONDS', 'int') @IntRange(1, 86_400) saveIdleSeconds = 30;

  /** Readers may follow a live session read-only (false: refused, 403). */
  @Env('COLLAB_READERS', 'bool') @IsBool() readersFollow = true;

  /** Open connections one person may hold at once (all pages). */
  @Env('COLLAB_MAX_CONNECTIONS_PER_USER', 'int') @IntRange(1, 10_000) maxConnectionsPerUser = 20;

  /** Open connections one page may hold. */
  @Env('COLLAB_MAX_CONNECTIONS_PER_PAGE', 'int')
  @IntRange(1, 100_000)
  maxConnectionsPerPage = 100;

  /** Largest WebSocket message accepted (bytes); a larger one closes that connection. */
  @Env('COLLAB_MAX_MESSAGE_BYTES', 'int')
  @IntRange(1024, 100 * 1024 * 1024)
  maxMessageBytes = 1024 * 1024;

  /** Messages one connection may send per second (averaged over a 10 s bucket). */
  @Env('COLLAB_MAX_MESSAGES_PER_SECOND', 'int')
  @IntRange(1, 100_000)
  maxMessagesPerSecond = 100;

  /** How often connections are pinged; one that missed a pong is dropped (seconds). */
  @Env('COLLAB_PING_SECONDS', 'int') @IntRange(1, 3600) pingSeconds = 30;
}
