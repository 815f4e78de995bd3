/** What the primary and its workers say to each other over the cluster's IPC channel. */
export type ClusterMessage =
  | { kb: 'write-lock-acquire'; id: number }
  | { kb: 'write-lock-granted'; id: number }
  | { kb: 'write-lock-release'; id: number }
  | { kb: 'write-lock-progress' }
  | { kb: 'metrics-request'; id: number }
  | { kb: 'metrics-answer'; id: number; text?: string; error?: string }
  /** The primary collects one worker's registry (prom-client's JSON form) for /metrics. */
  | { kb: 'metrics-collect'; id: number }
  | { kb: 'metrics-collected'; id: number; metrics: unknown[] }
  | { kb: 'ready'; line: Record<string, unknown> }
  /** A worker counts one request; the primary answers the instance's count (rate-count). */
  | { kb: 'rate-hit'; id: number; key: string; expiresAt: number; syncMs: number }
  | { kb: 'rate-count'; id: number; count: number }
  /** The primary's counters reach the shared store (database or Redis) through a worker. */
  | {
      kb: 'rate-store';
      id: number;
      op: 'add' | 'read' | 'purge';
      key: string;
      hits: number;
      at: number;
    }
  | { kb: 'rate-store-answer'; id: number; total?: number; error?: string }
  /** A live editing session's update or presence (base64), relayed to the other workers. */
  | { kb: 'collab'; pageId: string; data: string };

export function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && 'kb' in message;
}
