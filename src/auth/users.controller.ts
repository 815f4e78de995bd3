import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { answerWrite } from '../common/http/created';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { UserList, UserResponse } from './dto/auth-response.dto';
import { CreateUserDto, ListUsersQueryDto, UpdateUserDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@AdminOnly()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (admin)' })
  @ApiResult(UserResponse, { headers: ['Location'] })
  @ApiProblems(409)
  async createUser(
    @Body() body: CreateUserDto,
    @CurrentUser() actor: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserResponse> {
    return answerWrite(res, await this.users.create(body, actor.id));
  }

  @Get()
  @ApiOperation({
    summary: 'List users by username, optionally those matching q (admin)',
  })
  @ApiResult(UserList)
  listUsers(@Query() query: ListUsersQueryDto): Promise<Paged<UserResponse>> {
    return this.users.list(parseListRequest(query), query.q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a user (admin)' })
  @ApiResult(UserResponse)
  getUser(@Param('id', new UuidParam('user')) id: string): Promise<UserResponse> {
    return this.users.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change a user's role, groups, display name, password or disabled flag (admin)",
  })
  @ApiResult(UserResponse)
  @ApiProblems(409)
  updateUser(
    @Param('id', new UuidParam('user')) id: string,
    @Body() body: UpdateUserDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<UserResponse> {
    return this.users.update(id, body, actor.id);
  }
}
