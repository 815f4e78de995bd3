import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapFile } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import { useCursorList } from '../../../api/use-cursor-list';

type Schemas = components['schemas'];
export type BinItem = Schemas['BinItemResponse'];
export type User = Schemas['UserResponse'];
export type NewUser = Schemas['CreateUserDto'];
export type UserChange = Schemas['UpdateUserDto'];
export type ReviewDueItem = Schemas['ReviewDueItemResponse'];
export type Graph = Schemas['GraphResponse'];

const binKey = ['/api/bin'] as const;
const usersKey = ['/api/users'] as const;
const groupsKey = ['/api/groups'] as const;
const variablesKey = ['/api/variables'] as const;

/** After a change to the bin, the bin and every page list may differ. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return (...keys: (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function useBin() {
  return useCursorList<BinItem>(binKey, (cursor) =>
    unwrap(api.GET('/api/bin', { params: { query: { cursor, limit: 50 } } })),
  );
}

export function useRestoreFromBin() {
  const invalidate = useInvalidate();
  return useMutation({
    /** `slug`: restore under this slug instead of the page's own (taken) one. */
    mutationFn: ({ id, slug }: { id: string; slug?: string }) =>
      unwrap(
        api.POST('/api/bin/{id}/restore', {
          params: { path: { id } },
          ...(slug === undefined ? {} : { body: { slug } }),
        }),
      ),
    onSuccess: () => invalidate(binKey, ['/api/recent'], ['/api/tree']),
  });
}

export function usePurge() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/bin/{id}', { params: { path: { id } } })),
    onSuccess: () => invalidate(binKey),
  });
}

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

export function useSiteVariables() {
  return useQuery({
    queryKey: variablesKey,
    queryFn: () => unwrap(api.GET('/api/variables')),
  });
}

export function useSaveSiteVariables() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: Record<string, string>) =>
      unwrap(api.PUT('/api/variables', { body: { variables } })),
    onSuccess: (saved) => queryClient.setQueryData(variablesKey, saved),
  });
}

export function useReviewDue() {
  return useCursorList<ReviewDueItem>(['/api/review-due'], (cursor) =>
    unwrap(api.GET('/api/review-due', { params: { query: { cursor, limit: 50 } } })),
  );
}

export function useGraph() {
  return useQuery({ queryKey: ['/api/graph'], queryFn: () => unwrap(api.GET('/api/graph')) });
}

/** The archive of the named pages (all pages when `slugs` is undefined) as a file. */
export function exportArchive(slugs?: string[]) {
  return unwrapFile(
    api.POST('/api/export/archive', {
      body: slugs ? { slugs } : {},
      parseAs: 'blob',
    }),
    'kb-archive.zip',
  );
}
