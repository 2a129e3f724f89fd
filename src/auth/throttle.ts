// Login throttling: per account and per address, counted in the database so that every process
// and node throttles together (a guess on node A counts on node B). It stays on when
// RATE_LIMIT=off: it protects passwords, not capacity.
import type { Db } from '../../db/index.js';
import { clearCount, countHits, uncount } from '../shared/counters.js';

const accountKey = (username: string) => `login:account:${username}`;
const addressKey = (ip: string) => `login:ip:${ip}`;

export class LoginThrottle {
  constructor(
    private readonly now: () => number,
    readonly limits = {
      account: { max: 5, windowMs: 5 * 60_000 },
      address: { max: 10, windowMs: 60_000 },
    },
  ) {}

  /**
   * Counts a login attempt before its password is checked, and returns the seconds to wait when
   * it is one too many (0: go ahead). Counting first, in one atomic statement, is what keeps 50
   * parallel guesses from all reading "4 so far" and all getting through.
   */
  async attempt(db: Db, username: string, ip: string): Promise<number> {
    const now = this.now();
    const { account, address } = this.limits;
    // Always the account first, then the address: one lock order for every caller.
    const counts = await countHits(
      db,
      [
        { key: accountKey(username), windowMs: account.windowMs },
        { key: addressKey(ip), windowMs: address.windowMs },
      ],
      now,
    );
    let wait = 0;
    for (const [key, max] of [
      [accountKey(username), account.max],
      [addressKey(ip), address.max],
    ] as const) {
      const count = counts.get(key);
      if (count && count.count > max) wait = Math.max(wait, Math.ceil((count.resetAt - now) / 1000), 1);
    }
    return wait;
  }

  /**
   * A correct password: the account starts afresh, and the address gets its attempt back (only
   * failures count against an address, or an office behind one address could not log in).
   */
  async succeeded(db: Db, username: string, ip: string): Promise<void> {
    await clearCount(db, accountKey(username));
    await uncount(db, addressKey(ip), this.now());
  }
}
