import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';
import type { Role } from '../../common/auth/roles';

/** A personal access token: only its SHA-256 is stored; the secret is shown once. */
@Entity('access_tokens')
export class AccessTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ type: 'varchar', length: 36, name: 'user_id' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 64, unique: true, name: 'token_hash' })
  tokenHash: string;

  /** The first characters of the token, shown in lists so users can tell tokens apart. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  /** The widest role this token may act with; never wider than the owner's role. */
  @Column({ type: 'varchar', length: 16 })
  scope: Role;

  @DateTimeColumn({ name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @DateTimeColumn({ name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
