import { bool, Env, int } from './env-values';

/** Live co-editing at `/collab` (COLLAB_*): docs/collab.md. */
export interface CollabConfig {
  /** Seconds of quiet after which the shared text is written as a revision (default 30). */
  saveIdleSeconds: number;
  /** Readers may follow a live session read-only (COLLAB_READERS, default true). */
  readersFollow: boolean;
  /** Open connections one person may hold at once (all pages), and one page may hold. */
  maxConnectionsPerUser: number;
  maxConnectionsPerPage: number;
  /** Largest WebSocket message accepted (bytes); a larger one closes that connection. */
  maxMessageBytes: number;
  /** Messages one connection may send per second (averaged over a 10 s bucket). */
  maxMessagesPerSecond: number;
  /** How often connections are pinged; one that missed a pong is dropped (seconds). */
  pingSeconds: number;
}

export function collabConfig(env: Env): CollabConfig {
  return {
    saveIdleSeconds: int(env, 'COLLAB_SAVE_IDLE_SECONDS', 30, 1, 86_400),
    readersFollow: bool(env, 'COLLAB_READERS', true),
    maxConnectionsPerUser: int(env, 'COLLAB_MAX_CONNECTIONS_PER_USER', 20, 1, 10_000),
    maxConnectionsPerPage: int(env, 'COLLAB_MAX_CONNECTIONS_PER_PAGE', 100, 1, 100_000),
    maxMessageBytes: int(env, 'COLLAB_MAX_MESSAGE_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxMessagesPerSecond: int(env, 'COLLAB_MAX_MESSAGES_PER_SECOND', 100, 1, 100_000),
    pingSeconds: int(env, 'COLLAB_PING_SECONDS', 30, 1, 3600),
  };
}
