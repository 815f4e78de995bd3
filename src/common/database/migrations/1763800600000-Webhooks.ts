import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { Columns, columns, references } from '../migration-helpers';

function eventsTable(c: Columns): Table {
  return new Table({
    name: 'events',
    columns: [
      // The feed's order: an increasing sequence number.
      {
        name: 'seq',
        type: c.mysql ? 'bigint' : 'integer',
        isPrimary: true,
        isGenerated: true,
        generationStrategy: 'increment',
      },
      c.uuid('id'),
      c.string('type', 32),
      c.uuid('page_id', true),
      c.uuid('actor_id', true),
      c.json('data'),
      c.datetime('occurred_at'),
    ],
    uniques: [{ name: 'uq_events_id', columnNames: ['id'] }],
  });
}

function webhooksTable(c: Columns): Table {
  return new Table({
    name: 'webhooks',
    columns: [
      c.id(),
      c.string('url', 2048),
      c.json('events'),
      c.string('secret', 200),
      c.bool('active', true),
      c.uuid('created_by', true),
      c.datetime('created_at'),
      c.datetime('updated_at'),
    ],
  });
}

function webhookDeliveriesTable(c: Columns): Table {
  return new Table({
    name: 'webhook_deliveries',
    columns: [
      c.id(),
      c.uuid('webhook_id'),
      { name: 'event_seq', type: c.mysql ? 'bigint' : 'integer', isNullable: false },
      // Deliveries with the same key go out in event order (a page's events).
      c.string('order_key', 64),
      c.string('state', 16),
      c.int('tries', false, 0),
      c.datetime('next_attempt_at'),
      c.datetime('lease_until', true),
      c.int('last_status', true),
      c.string('last_error', 500, true),
      c.datetime('last_attempt_at', true),
      c.datetime('delivered_at', true),
      c.datetime('created_at'),
    ],
    indices: [
      { name: 'idx_webhook_deliveries_due', columnNames: ['state', 'next_attempt_at'] },
      {
        name: 'idx_webhook_deliveries_order',
        columnNames: ['webhook_id', 'order_key', 'event_seq'],
      },
      { name: 'idx_webhook_deliveries_list', columnNames: ['webhook_id', 'event_seq'] },
    ],
    foreignKeys: [references('webhook_id', 'webhooks')],
  });
}

function webhookAttemptsTable(c: Columns): Table {
  return new Table({
    name: 'webhook_attempts',
    columns: [
      c.id(),
      c.uuid('delivery_id'),
      c.datetime('attempted_at'),
      c.int('status_code', true),
      c.string('error', 500, true),
      c.int('duration_ms'),
    ],
    indices: [
      { name: 'idx_webhook_attempts_delivery', columnNames: ['delivery_id', 'attempted_at'] },
    ],
    foreignKeys: [references('delivery_id', 'webhook_deliveries')],
  });
}

/**
 * The event log (GET /api/events, the source of webhook deliveries), webhook subscriptions,
 * and the durable outbox of deliveries with their attempts.
 */
export class Webhooks1763800600000 implements MigrationInterface {
  name = 'Webhooks1763800600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const tables = [
      eventsTable(c),
      webhooksTable(c),
      webhookDeliveriesTable(c),
      webhookAttemptsTable(c),
    ];
    for (const table of tables) await queryRunner.createTable(table);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_attempts');
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhooks');
    await queryRunner.dropTable('events');
  }
}
