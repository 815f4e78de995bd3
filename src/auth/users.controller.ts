import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { toUserResponse } from './auth.mapper';
import { UserList, UserResponse } from './dto/auth-response.dto';
import { CreateUserDto, UpdateUserDto } from './dto/user.dto';
import { UsersService } from './users.service';
import { ListQueryDto } from '../common/http/list-query.dto';

@ApiTags('users')
@AdminOnly()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (admin)' })
  @ApiResult(UserResponse)
  @ApiProblems(409)
  async createUser(
    @Body() body: CreateUserDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<UserResponse> {
    return toUserResponse(await this.users.create(body, actor.id));
  }

  @Get()
  @ApiOperation({ summary: 'List users by username (admin)' })
  @ApiResult(UserList)
  listUsers(@Query() query: ListQueryDto): Promise<Paged<UserResponse>> {
    return this.users.list(parseListRequest(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a user (admin)' })
  @ApiResult(UserResponse)
  async getUser(@Param('id') id: string): Promise<UserResponse> {
    return toUserResponse(await this.users.get(id));
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a user's role, groups, display name, password or disabled flag (admin)",
  })
  @ApiResult(UserResponse)
  @ApiProblems(409)
  async updateUser(
    @Param('id') id: string,
    @Body() body: UpdateUserDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<UserResponse> {
    return toUserResponse(await this.users.update(id, body, actor.id));
  }
}
