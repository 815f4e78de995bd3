/** What the primary and its workers say to each other over the cluster's IPC channel. */
export type ClusterMessage =
  | { kb: 'write-lock-acquire'; id: number }
  | { kb: 'write-lock-granted'; id: number }
  | { kb: 'write-lock-release'; id: number }
  | { kb: 'write-lock-progress' }
  | { kb: 'metrics-request'; id: number }
  | { kb: 'metrics-answer'; id: number; text?: string; error?: string }
  | { kb: 'ready'; line: Record<string, unknown> };

export function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && 'kb' in message;
}
