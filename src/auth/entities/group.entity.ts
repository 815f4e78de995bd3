import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../common/database/columns';

/** `groups` is a reserved word on MySQL 8, hence the table name. */
@Entity('access_groups')
export class GroupEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Stored lowercase; pages name their groups by this. */
  @Column({ type: 'varchar', length: 64, unique: true })
  name: string;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
