import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { UserRef } from '../../auth/public-sql';
import { DateTimeColumn } from '../../common/database/columns';

export const MEDIA_KINDS = ['image', 'attachment'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Byte counts fit a JS number; MySQL hands BIGINT back as a string. */
const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | number) => Number(value),
};

/** Metadata of one upload; the bytes live in MediaStorage under `sha256` (shared by identical uploads). */
@Entity('media')
export class MediaEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  kind: MediaKind;

  /** Sanitised display name. */
  @Column({ type: 'varchar', length: 255 })
  filename: string;

  /** The type detected from the bytes (never the client's claim). */
  @Column({ type: 'varchar', length: 127, name: 'mime_type' })
  mimeType: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size: number;

  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ type: 'int', nullable: true })
  width: number | null;

  @Column({ type: 'int', nullable: true })
  height: number | null;

  @Column({ type: 'varchar', length: 36, name: 'uploaded_by', nullable: true })
  uploadedById: string | null;

  /** Not a column: the uploader (null when the account is gone), read beside the row by MediaRepository. */
  uploader?: UserRef | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
