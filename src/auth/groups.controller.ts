import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { Paged } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { GroupList, GroupResponse } from './dto/auth-response.dto';
import { CreateGroupDto } from './dto/user.dto';
import { GroupsService } from './groups.service';

@ApiTags('users')
@Controller('api/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @ApiOperation({ summary: 'Groups the caller may assign: all for admins, their own for others' })
  @ApiResult(GroupList)
  listGroups(@CurrentUser() user: AuthUser): Promise<Paged<GroupResponse>> {
    return this.groups.listAssignable(user);
  }

  @AdminOnly()
  @Post()
  @ApiOperation({ summary: 'Create a group (admin)' })
  @ApiResult(GroupResponse)
  @ApiProblems(409)
  createGroup(
    @Body() body: CreateGroupDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<GroupResponse> {
    return this.groups.create(body.name, actor.id);
  }
}
