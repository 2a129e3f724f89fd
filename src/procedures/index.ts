// The whole API as one tRPC router; REST (src/rest/routes.ts) is an adapter over it.
import { createCallerFactory, router } from '../trpc/init.js';
import { adsRouter, videosRouter } from './ads.js';
import { authRouter, usersRouter } from './auth.js';
import { dataRouter } from './data.js';
import { keysRouter } from './keys.js';
import { messagesRouter } from './messages.js';
import { placesRouter } from './places.js';
import { plansRouter } from './plans.js';
import { settingsRouter } from './settings.js';
import { visitsRouter } from './visits.js';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  settings: settingsRouter,
  ads: adsRouter,
  videos: videosRouter,
  plans: plansRouter,
  messages: messagesRouter,
  visits: visitsRouter,
  places: placesRouter,
  data: dataRouter,
  keys: keysRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;
