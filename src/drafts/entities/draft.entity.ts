import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn } from '../../common/database/columns';

/** A private server draft: one JSON document per (user, key). */
@Entity('drafts')
export class DraftEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36, name: 'user_id' })
  userId: string;

  @Column({ type: 'varchar', length: 300, name: 'draft_key' })
  key: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  title: string | null;

  /** The body as sent (content, title and any other members), without the server's own members. */
  @JsonColumn()
  document: Record<string, unknown>;

  /** UTF-8 bytes of the stored JSON document; checked against DRAFT_MAX_BYTES. */
  @Column({ type: 'int' })
  size: number;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @DateTimeColumn({ name: 'updated_at' })
  updatedAt: Date;
}
