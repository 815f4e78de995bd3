import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../auth/entities/user.entity';
import { DateTimeColumn, JsonColumn } from '../../common/database/columns';

export const NOTIFICATION_KINDS = [
  'page.updated',
  'page.binned',
  'page.review_due',
  'import.finished',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One item of a user's inbox. Page slug and title are kept as they were when it was created. */
@Entity('notifications')
export class NotificationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36, name: 'recipient_id' })
  recipientId: string;

  @Column({ type: 'varchar', length: 32 })
  kind: NotificationKind;

  @Column({ type: 'varchar', length: 36, name: 'page_id', nullable: true })
  pageId: string | null;

  @Column({ type: 'varchar', length: 255, name: 'page_slug', nullable: true })
  pageSlug: string | null;

  @Column({ type: 'varchar', length: 255, name: 'page_title', nullable: true })
  pageTitle: string | null;

  @Column({ type: 'varchar', length: 36, name: 'actor_id', nullable: true })
  actorId: string | null;

  @ManyToOne(() => UserEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'actor_id' })
  actor?: UserEntity | null;

  @JsonColumn()
  data: Record<string, unknown>;

  @Column({ type: 'varchar', length: 128, name: 'dedupe_key', nullable: true })
  dedupeKey: string | null;

  @DateTimeColumn({ name: 'read_at', nullable: true })
  readAt: Date | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
