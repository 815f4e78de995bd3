import { useQueryClient } from '@tanstack/react-query';

/** Marks the queries under these keys stale after a change (they refetch when shown). */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return (...keys: (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
