import { QueryClient } from '@tanstack/react-query';
import { isProblem } from '../api/problem';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A problem answer (404, 403, 422...) will not change by asking again; a network error may.
      retry: (failures, error) => !isProblem(error) && failures < 2,
      refetchOnWindowFocus: true,
    },
  },
});
