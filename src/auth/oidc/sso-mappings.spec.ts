import { mappedGroups, mappedRole } from './sso-accounts.service';

const mappings = {
  roleMap: [
    { idpGroup: 'staff', role: 'reader' as const },
    { idpGroup: 'writers', role: 'editor' as const },
    { idpGroup: 'admins', role: 'admin' as const },
  ],
  groupMap: [
    { idpGroup: 'eng', kbGroup: 'engineering' },
    { idpGroup: 'platform', kbGroup: 'engineering' },
    { idpGroup: 'ops', kbGroup: 'ops' },
  ],
};

describe('SSO mappings', () => {
  it('gives the widest role of the mapped groups, in any order', () => {
    expect(mappedRole(['admins', 'staff', 'writers'], mappings)).toBe('admin');
    expect(mappedRole(['staff', 'writers'], mappings)).toBe('editor');
    expect(mappedRole(['writers', 'staff'], mappings)).toBe('editor');
    expect(mappedRole(['staff'], mappings)).toBe('reader');
  });

  it('says nothing about a role when no group is mapped', () => {
    expect(mappedRole(['visitors'], mappings)).toBeNull();
    expect(mappedRole([], mappings)).toBeNull();
  });

  it('maps groups to kb groups once each, sorted, matching names exactly', () => {
    expect(mappedGroups(['ops', 'platform', 'eng'], mappings)).toEqual(['engineering', 'ops']);
    expect(mappedGroups(['Eng', 'OPS'], mappings)).toEqual([]);
  });
});
