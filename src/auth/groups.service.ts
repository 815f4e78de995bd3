import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { audit } from '../common/logging/audit';
import { ConflictProblem, FieldProblems } from '../common/problems/problem';
import { Paged } from '../common/http/pagination';
import { GroupResponse, toGroupResponse } from './auth.mapper';
import { GroupEntity } from './entities/group.entity';
import { GroupsRepository } from './store/groups.repository';

@Injectable()
export class GroupsService {
  constructor(private readonly groups: GroupsRepository) {}

  /** `actorId`: the administrator creating it; null for the CLI. */
  async create(name: string, actorId: string | null = null): Promise<GroupResponse> {
    const normalised = name.toLowerCase();
    if (await this.groups.nameTaken(normalised)) {
      throw new ConflictProblem('group_exists', `A group named "${normalised}" already exists.`);
    }
    const group = Object.assign(new GroupEntity(), {
      id: randomUUID(),
      name: normalised,
      createdAt: new Date(),
    });
    let saved: GroupEntity;
    try {
      saved = await this.groups.insert(group);
    } catch (error) {
      if (await this.groups.nameTaken(normalised)) {
        throw new ConflictProblem('group_exists', `A group named "${normalised}" already exists.`);
      }
      throw error;
    }
    audit('group.created', { actorId, target: `group:${saved.id}`, name: normalised });
    return toGroupResponse(saved);
  }

  /** Groups the caller may assign, in one page: every group for admins, their own for others. */
  async listAssignable(user: AuthUser): Promise<Paged<GroupResponse>> {
    let groups: GroupEntity[] = [];
    if (isAdmin(user)) groups = await this.groups.listAll();
    else if (user.groups.length > 0) groups = await this.groups.findNamed(user.groups);
    return { items: groups.map(toGroupResponse), nextCursor: null };
  }

  /**
   * Resolves group names to entities; every unknown name is a field problem at `field[i]`.
   */
  async resolveNames(names: string[], field = 'groups'): Promise<GroupEntity[]> {
    const normalised = [...new Set(names.map((n) => n.trim().toLowerCase()))];
    if (normalised.length === 0) return [];
    const found = await this.groups.findNamed(normalised);
    const known = new Set(found.map((g) => g.name));
    const problems = names
      .map((name, index) => ({ name: name.trim().toLowerCase(), index }))
      .filter(({ name }) => !known.has(name))
      .map(({ name, index }) => ({
        field: `${field}[${index}]`,
        code: 'unknown_group',
        message: `No group named "${name}".`,
      }));
    if (problems.length > 0) throw new FieldProblems(problems);
    return found;
  }

  /** The groups with these names that exist (unknown names are left out), by name. */
  findNamed(names: string[]): Promise<GroupEntity[]> {
    return this.groups.findNamed(names);
  }
}
