import { QueryClient } from '@tanstack/react-query';
import { APIError } from '@tessera/sdk';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // An answer from the API (404, 401, 422) will not change by asking again.
        retry: (count, error) => !(error instanceof APIError) && count < 2,
      },
    },
  });
}
