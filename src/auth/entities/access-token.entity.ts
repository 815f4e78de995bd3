import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';
import type { Role } from '../../common/auth/roles';
import type { TokenPermission } from '../../common/auth/token-scope';

/** A JSON array column: NULL is "no limit". */
const jsonList = {
  to: (value: string[] | null | undefined): string | null =>
    value === null || value === undefined ? null : JSON.stringify(value),
  from: (value: string | null): string[] | null =>
    value === null || value === undefined ? null : (JSON.parse(value) as string[]),
};

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

  /** Slug patterns the token is limited to (common/auth/token-scope.ts); null: every page. */
  @Column({ type: 'text', nullable: true, transformer: jsonList })
  paths: string[] | null;

  /** Verbs the token may use; null: all of them. */
  @Column({ type: 'varchar', length: 100, nullable: true, transformer: jsonList })
  permissions: TokenPermission[] | null;

  @DateTimeColumn({ name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @DateTimeColumn({ name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
