import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local HTTP receiver for webhook tests: records every request and answers with the next
 * status of `statuses` (then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private statuses: number[] = [];
  private server!: Server;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.statusCode = receiver.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/hook`;
  }

  /** The next answers, in order (afterwards 200). */
  answer(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  /** From now on: 200. */
  clearAnswers(): void {
    this.statuses = [];
  }

  /** The received payloads, parsed. */
  payloads(): { type: string; timestamp: string; data: Record<string, unknown> }[] {
    return this.received.map((r) => JSON.parse(r.body));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
