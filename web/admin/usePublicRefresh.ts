// After the admin changes what the public pages show (settings, ads, plans), the public pages'
// cached answers (REST, non-tRPC query keys) are marked stale so the next visit refetches them.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isTrpcQueryKey } from './trpc';

export function usePublicRefresh(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ predicate: (query) => !isTrpcQueryKey(query.queryKey) });
  }, [queryClient]);
}
