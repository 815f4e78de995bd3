import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { scopeKey } from '../common/auth/token-scope';
import { InjectConfig } from '../common/config/app-config';
import type { WebhooksConfig } from '../common/config/webhooks-config';
import { ShutdownState } from '../common/health/shutdown-state';
import { KbMetrics } from '../common/metrics/kb-metrics';
import type { EventStream } from '../common/http/event-stream';
import { BadRequestProblem } from '../common/problems/problem';
import { EventLogRepository } from './event-log.repository';
import type { EventRecord } from './event-types';
import { EventsService } from './events.service';
import { toEventResponse } from './webhooks.mapper';

/** Events replayed for a `Last-Event-ID` at most; further behind, the client is told to reload. */
export const MAX_REPLAY = 500;
/** Events read per viewer class per round; a longer backlog continues in the next round at once. */
const BATCH = 500;

interface Subscriber {
  viewer: AuthUser;
  /** Who sees the same events: role and groups. */
  viewerKey: string;
  stream: EventStream;
  /** The last event seq this subscriber has been sent (or was current when it joined). */
  cursor: number;
}

/**
 * `GET /api/events/stream`: the event feed as Server-Sent Events, each event's `id` its place
 * in the log, so a reconnecting browser resumes with `Last-Event-ID`. One poller per process
 * reads the event log (the table every instance and worker writes), not process memory, so an
 * event recorded by any process reaches every stream: one cheap `MAX(seq)` per round while
 * nothing happens, and, when something did, one visibility-filtered read per class of viewers
 * (role and groups) with open streams, not one per stream. Nothing runs with no stream open.
 */
@Injectable()
export class EventStreamService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventStreamService.name);
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;

  constructor(
    @InjectConfig('webhooks') private readonly webhooksConfig: WebhooksConfig,
    private readonly log: EventLogRepository,
    private readonly events: EventsService,
    private readonly shutdown: ShutdownState,
    metrics: KbMetrics,
  ) {
    metrics.addGauge(
      'kb_event_streams_open',
      'Live event streams open now (GET /api/events/stream).',
      () => this.subscribers.size,
    );
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.tick(), this.webhooksConfig.streamPollMs);
    this.timer.unref();
    // A stream never ends by itself: a draining instance would wait for it until its
    // deadline. Ending them at once lets the browsers reconnect elsewhere with Last-Event-ID.
    this.shutdown.onDrainStart(EventStreamService.name, () => this.endAll());
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.endAll();
    await this.round;
  }

  private endAll(): void {
    for (const subscriber of this.subscribers) subscriber.stream.end();
    this.subscribers.clear();
  }

  /** Open streams in this process (for tests and metrics). */
  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Starts a stream for `viewer`: first the events after `lastEventId` it may see (at most
   * MAX_REPLAY; further behind, one `reset` event: reload everything), then every new one.
   * Answers the function that ends the subscription (the client went away).
   */
  async subscribe(
    viewer: AuthUser,
    lastEventId: string | undefined,
    stream: EventStream,
  ): Promise<() => void> {
    const after = lastEventId === undefined ? undefined : parseEventId(lastEventId);
    const latest = await this.log.latestSeq();
    const subscriber: Subscriber = {
      viewer,
      viewerKey: viewerKey(viewer),
      stream,
      cursor: latest,
    };
    if (after !== undefined && after < latest) {
      const missed = await this.log.listAfter(
        after,
        this.events.streamVisibility(viewer, latest),
        MAX_REPLAY + 1,
      );
      if (missed.length > MAX_REPLAY) stream.send('reset', { reason: 'too_far_behind' });
      else for (const event of missed) this.send(subscriber, event);
    }
    stream.send('ready', { lastEventId: String(latest) }, String(latest));
    if (this.shutdown.draining) {
      stream.end();
      return () => undefined;
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  private tick(): void {
    if (this.round || this.subscribers.size === 0) return;
    this.round = this.deliver()
      .catch((error: unknown) =>
        this.logger.warn({
          msg: 'event stream round failed',
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => (this.round = null));
  }

  /** One round: anything new since the oldest cursor goes to the streams that may see it. */
  private async deliver(): Promise<void> {
    const latest = await this.log.latestSeq();
    const classes = new Map<string, Subscriber[]>();
    for (const subscriber of this.subscribers) {
      if (subscriber.cursor >= latest) continue;
      const group = classes.get(subscriber.viewerKey) ?? [];
      group.push(subscriber);
      classes.set(subscriber.viewerKey, group);
    }
    for (const group of classes.values()) {
      const from = Math.min(...group.map((s) => s.cursor));
      const events = await this.log.listAfter(
        from,
        this.events.streamVisibility(group[0].viewer, latest),
        BATCH,
      );
      // A full batch: the rest follows next round, after the last event read.
      const upTo = events.length === BATCH ? events[events.length - 1].seq : latest;
      for (const subscriber of group) {
        if (!this.subscribers.has(subscriber)) continue;
        for (const event of events) if (event.seq > subscriber.cursor) this.send(subscriber, event);
        subscriber.cursor = Math.max(subscriber.cursor, upTo);
      }
    }
  }

  private send(subscriber: Subscriber, event: EventRecord): void {
    const shown = toEventResponse(event);
    // Readers learn that an import finished (their lists may have changed), not its report.
    if (event.type === 'import.finished' && !isAdmin(subscriber.viewer)) shown.data = {};
    subscriber.stream.send(event.type, shown, String(event.seq));
    subscriber.cursor = Math.max(subscriber.cursor, event.seq);
  }
}

function viewerKey(viewer: AuthUser): string {
  return JSON.stringify([viewer.role, [...viewer.groups].sort(), scopeKey(viewer)]);
}

function parseEventId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw new BadRequestProblem(
      'invalid_last_event_id',
      'Last-Event-ID is not an event id this stream sent.',
    );
  return Number(raw.trim());
}
