import { Injectable, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Interval } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsService } from './accounts.service';
import { AuthCache } from './auth-cache';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialsService } from './credentials.service';
import { AccessTokenEntity } from './entities/access-token.entity';
import { GroupEntity } from './entities/group.entity';
import { LoginThrottleEntity } from './entities/login-throttle.entity';
import { SessionEntity } from './entities/session.entity';
import { UserEntity } from './entities/user.entity';
import { GroupsService } from './groups.service';
import { LoginThrottleService } from './login-throttle.service';
import { MeController } from './me.controller';
import { PasswordService } from './password.service';
import { SessionsService } from './sessions.service';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';
import { UserCredentialsController } from './user-credentials.controller';
import { GroupsController, UsersController } from './users.controller';
import { UsersService } from './users.service';

@Injectable()
class AuthHousekeeping {
  constructor(
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
  ) {}

  @Interval(3_600_000)
  async purgeExpired(): Promise<void> {
    await this.sessions.purgeExpired();
    await this.throttle.purgeExpired();
  }
}

@Module({
  imports: [
    TypeOrmModule.forFeature([
      UserEntity,
      GroupEntity,
      SessionEntity,
      AccessTokenEntity,
      LoginThrottleEntity,
    ]),
  ],
  controllers: [
    AuthController,
    MeController,
    UsersController,
    UserCredentialsController,
    GroupsController,
    TokensController,
  ],
  providers: [
    AccountsService,
    AuthCache,
    AuthService,
    CredentialsService,
    GroupsService,
    LoginThrottleService,
    PasswordService,
    SessionsService,
    TokensService,
    UsersService,
    AuthHousekeeping,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [UsersService, GroupsService, AccountsService],
})
export class AuthModule {}
