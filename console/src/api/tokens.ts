import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { AccessToken, Role } from './types';
import { useCursorList } from './use-cursor-list';

const key = ['/api/tokens'] as const;

export function useTokens() {
  return useCursorList<AccessToken>(key, (cursor) =>
    unwrap(api.GET('/api/tokens', { params: { query: { cursor, limit: 50 } } })),
  );
}

export interface NewToken {
  name: string;
  expiresAt?: string;
  scope?: Role;
  /** Slug patterns (`docs/team-a/**`); absent: every page. */
  paths?: string[];
  /** Verbs; absent: all of them. */
  permissions?: TokenPermission[];
}

export type TokenPermission = 'read' | 'write' | 'import' | 'comment';
export const TOKEN_PERMISSIONS: TokenPermission[] = ['read', 'write', 'import', 'comment'];

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewToken) => unwrap(api.POST('/api/tokens', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
