// The admin's typed client for /trpc. One link watches every answer for a lost session
// (UNAUTHORIZED) or a password that must be changed first (FORBIDDEN), so that the shell can
// react in one place instead of every page handling it.
import { httpBatchLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import { observable } from '@trpc/server/observable';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../src/procedures/index';

export const trpc = createTRPCReact<AppRouter>();

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

export type AuthProblem = 'unauthorized' | 'forbidden';
type AuthListener = (problem: AuthProblem) => void;
const authListeners = new Set<AuthListener>();

/** Called with 'unauthorized' when the session is gone, 'forbidden' when the password must change. */
export function onAuthProblem(listener: AuthListener): () => void {
  authListeners.add(listener);
  return () => void authListeners.delete(listener);
}

export function reportAuthProblem(problem: AuthProblem): void {
  for (const listener of authListeners) listener(problem);
}

/** The tRPC error code of an error, if it is one from the server. */
export function errorCode(error: unknown): string | undefined {
  if (error instanceof TRPCClientError) return (error.data as { code?: string } | undefined)?.code;
  return undefined;
}

// A failed login answers UNAUTHORIZED too, but that is a wrong password, not a lost session.
const PATHS_WITHOUT_SESSION = new Set(['auth.login', 'auth.status', 'auth.logout']);

const authWatchLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          if (!PATHS_WITHOUT_SESSION.has(op.path)) {
            const code = errorCode(error);
            if (code === 'UNAUTHORIZED') reportAuthProblem('unauthorized');
            if (code === 'FORBIDDEN') reportAuthProblem('forbidden');
          }
          observer.error(error);
        },
        complete: () => observer.complete(),
      }),
    );

export function createAdminClient() {
  return trpc.createClient({
    links: [authWatchLink, httpBatchLink({ url: '/trpc', maxURLLength: 2000 })],
  });
}

/** The admin's own query keys (tRPC's) as opposed to the public pages' REST ones. */
export const isTrpcQueryKey = (key: readonly unknown[]) => Array.isArray(key[0]);
