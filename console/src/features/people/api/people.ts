import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { useInvalidate } from '../../../api/invalidate';
import type { components } from '../../../api/kb-api';
import { useCursorList } from '../../../api/use-cursor-list';

type Schemas = components['schemas'];
export type User = Schemas['UserResponse'];
export type NewUser = Schemas['CreateUserDto'];
export type UserChange = Schemas['UpdateUserDto'];

const usersKey = ['/api/users'] as const;
const groupsKey = ['/api/groups'] as const;

/** `filter`: only users whose username, display name or email contains it. */
export function useUsers(filter = '') {
  const q = filter.trim();
  return useCursorList<User>([...usersKey, q], (cursor) =>
    unwrap(
      api.GET('/api/users', { params: { query: { cursor, limit: 100, ...(q ? { q } : {}) } } }),
    ),
  );
}

/** Clears a throttled account's failed sign-ins, so its owner may sign in at once. */
export function useUnlockUser() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/api/users/{id}/unlock', { params: { path: { id } } })),
    onSuccess: () => invalidate(usersKey),
  });
}

/** Takes a person's second factors away (TOTP, recovery codes, passkeys): a lost phone. */
export function useResetTwoFactor() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/api/users/{id}/two-factor/reset', { params: { path: { id } } })),
    onSuccess: () => invalidate(usersKey),
  });
}

export function useCreateUser() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: NewUser) => unwrap(api.POST('/api/users', { body })),
    onSuccess: () => invalidate(usersKey),
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: UserChange }) =>
      unwrap(api.PATCH('/api/users/{id}', { params: { path: { id } }, body: change })),
    onSuccess: () => invalidate(usersKey),
  });
}

export function useGroups() {
  return useQuery({
    queryKey: groupsKey,
    queryFn: () => unwrap(api.GET('/api/groups')),
  });
}

export function useCreateGroup() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/groups', { body: { name } })),
    onSuccess: () => invalidate(groupsKey),
  });
}
