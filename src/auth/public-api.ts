/**
 * What other modules may use of auth (docs/CONTRACTS.md): its Nest module, the services it
 * exports, and the DTOs they take and answer. SQL fragments over its tables: public-sql.ts.
 * `npm run lint` refuses an import of any other file of auth from outside it.
 */
export { AccountsService } from './accounts.service';
export { AuthModule } from './auth.module';
export { UserRefResponse } from './dto/auth-response.dto';
export { CreateGroupDto, CreateUserDto, UpdateUserDto } from './dto/user.dto';
export { GroupsService } from './groups.service';
export { UsersService } from './users.service';
export { CredentialsService } from './credentials.service';
export { SESSION_COOKIE } from './sessions.service';
/** Live co-editing drops a connection when the credentials generation moves (docs/collab.md). */
export { AuthGenerationRepository } from './store/auth-generation.repository';
/** The OAuth authorization server's endpoints, mounted by app.factory (docs/oauth.md). */
export { OAuthServer } from './oauth/oauth-server';
