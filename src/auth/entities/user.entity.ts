import { Column, Entity, JoinTable, ManyToMany, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';
import type { Role } from '../../common/auth/roles';
import { GroupEntity } from './group.entity';

@Entity('users')
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** The name shown; new accounts store their canonical form (`canonicalUsername`). */
  @Column({ type: 'varchar', length: 64, unique: true })
  username: string;

  /**
   * What sign-in, lookups and the login throttle compare: `canonicalUsername(username)`, unique,
   * in a binary collation (utf8mb4_bin on MySQL/MariaDB). An account that lost a canonical-form
   * clash in the migration holds `#<id>`, which no sign-in can produce.
   */
  @Column({ type: 'varchar', length: 128, name: 'username_key', unique: true })
  usernameKey: string;

  @Column({ type: 'varchar', length: 128, name: 'display_name' })
  displayName: string;

  @Column({ type: 'varchar', length: 255, name: 'password_hash' })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** Where the person can be reached; optional, shown to them and to administrators. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  /** The last successful sign-in (a browser session started); null: never since it was added. */
  @DateTimeColumn({ name: 'last_login_at', nullable: true })
  lastLoginAt: Date | null;

  @ManyToMany(() => GroupEntity, { eager: false })
  @JoinTable({
    name: 'user_group_members',
    joinColumn: { name: 'user_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'group_id', referencedColumnName: 'id' },
  })
  groups: GroupEntity[];

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @DateTimeColumn({ name: 'updated_at' })
  updatedAt: Date;
}
