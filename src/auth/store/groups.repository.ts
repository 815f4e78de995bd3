import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Database, Tx } from '../../common/database/database';
import { GroupEntity } from '../entities/group.entity';

/** The one door to `access_groups` (other modules' SQL uses auth/store/user-sql.ts). */
@Injectable()
export class GroupsRepository {
  constructor(private readonly db: Database) {}

  private groups(tx?: Tx) {
    return this.db.manager(tx).getRepository(GroupEntity);
  }

  nameTaken(name: string, tx?: Tx): Promise<boolean> {
    return this.groups(tx).existsBy({ name });
  }

  insert(group: GroupEntity, tx?: Tx): Promise<GroupEntity> {
    return this.db.write((t) => t.manager.save(GroupEntity, group), tx);
  }

  /** Every group, by name. */
  listAll(tx?: Tx): Promise<GroupEntity[]> {
    return this.groups(tx).find({ order: { name: 'ASC' } });
  }

  /** The groups with these names that exist, by name. */
  findNamed(names: string[], tx?: Tx): Promise<GroupEntity[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.groups(tx).find({ where: { name: In(names) }, order: { name: 'ASC' } });
  }
}
