import { Filter } from 'ldapts';
import { mappedGroups, mappedRole } from '../oidc/sso-accounts.service';
import { groupKeys } from './ldap-directory';
import { ldapGroupKey } from '../../common/config/ldap-config';

describe('LDAP groups as the mappings read them', () => {
  it('counts a group DN by its DN and by its name, without case or spaces after commas', () => {
    expect(groupKeys(['CN=Kb Editors, OU=Groups,DC=corp,DC=example'])).toEqual([
      'cn=kb editors,ou=groups,dc=corp,dc=example',
      'kb editors',
    ]);
  });

  it('maps by DN or by name, the widest role winning', () => {
    const mappings = {
      roleMap: [
        {
          idpGroup: ldapGroupKey('CN=Admins, OU=Groups,DC=corp,DC=example'),
          role: 'admin' as const,
        },
        { idpGroup: ldapGroupKey('Editors'), role: 'editor' as const },
      ],
      groupMap: [{ idpGroup: ldapGroupKey('eng'), kbGroup: 'engineering' }],
    };
    const groups = groupKeys(['cn=editors,ou=groups,dc=corp,dc=example', 'cn=eng,ou=groups,dc=x']);
    expect(mappedRole(groups, mappings)).toBe('editor');
    expect(mappedGroups(groups, mappings)).toEqual(['engineering']);
    expect(mappedRole(groupKeys(['cn=admins,ou=groups,dc=corp,dc=example']), mappings)).toBe(
      'admin',
    );
  });

  it('escapes filter values per RFC 4515 (what LDAP_USER_FILTER gets)', () => {
    expect(Filter.escape('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(Filter.escape('a\\b\u0000')).toBe('a\\5cb\\00');
  });
});
