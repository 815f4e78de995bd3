import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';

/** A browser session. The id is the SHA-256 of the cookie value, so a database read can't sign anyone in. */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Index()
  @Column({ type: 'varchar', length: 36, name: 'user_id' })
  userId: string;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @DateTimeColumn({ name: 'last_seen_at' })
  lastSeenAt: Date;

  /** Absolute expiry; idle expiry is lastSeenAt + the idle timeout. */
  @DateTimeColumn({ name: 'expires_at' })
  expiresAt: Date;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true, name: 'user_agent' })
  userAgent: string | null;

  /** How the session was made: `password`, `password+totp`, `passkey`, `ldap`, `oidc:<id>`, `saml:<id>`, … */
  @Column({ type: 'varchar', length: 80, default: 'password' })
  method: string;
}
