import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { LdapGroup } from '../../common/config/ldap-config';
import type { UserEntity } from '../entities/user.entity';
import { SsoAccountsService } from '../oidc/sso-accounts.service';
import { LdapDirectory, type LdapRefusal } from './ldap-directory';

/**
 * A sign-in through the directory: the person's kb account, provisioned at their first sign-in
 * and given the role and groups LDAP_ROLE_MAP and LDAP_GROUP_MAP say at every one (the same
 * code as OIDC's). Null when no directory is configured.
 */
@Injectable()
export class LdapLogin {
  constructor(
    private readonly directory: LdapDirectory,
    private readonly accounts: SsoAccountsService,
    @InjectConfig('ldap') private readonly config: LdapGroup,
  ) {}

  async signIn(
    username: string,
    password: string,
  ): Promise<{ user: UserEntity } | { refused: LdapRefusal } | null> {
    const ldap = this.config.directory;
    if (!ldap) return null;
    const answer = await this.directory.authenticate(username.trim(), password);
    if ('refused' in answer) return answer;
    return { user: await this.accounts.signIn(answer.identity, ldap) };
  }
}
