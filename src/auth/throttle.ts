// Login throttling: per account and per address, in memory (one process serves the site).
// It stays on when RATE_LIMIT=off: it protects passwords, not capacity.

interface Window {
  times: number[];
}

export class LoginThrottle {
  private readonly accounts = new Map<string, Window>();
  private readonly addresses = new Map<string, Window>();

  constructor(
    private readonly now: () => number,
    readonly limits = {
      account: { max: 5, windowMs: 5 * 60_000 },
      address: { max: 10, windowMs: 60_000 },
    },
  ) {}

  /** Seconds to wait before another try, or 0 when a try is allowed now. */
  retryAfter(username: string, ip: string): number {
    const now = this.now();
    const wait = (map: Map<string, Window>, key: string, max: number, windowMs: number) => {
      const times = this.recent(map, key, windowMs, now);
      return times.length >= max ? Math.ceil((times[times.length - max] + windowMs - now) / 1000) : 0;
    };
    return Math.max(
      wait(this.accounts, username, this.limits.account.max, this.limits.account.windowMs),
      wait(this.addresses, ip, this.limits.address.max, this.limits.address.windowMs),
      0,
    );
  }

  recordFailure(username: string, ip: string): void {
    const now = this.now();
    this.push(this.accounts, username, now);
    this.push(this.addresses, ip, now);
  }

  recordSuccess(username: string): void {
    this.accounts.delete(username);
  }

  private recent(map: Map<string, Window>, key: string, windowMs: number, now: number): number[] {
    const window = map.get(key);
    if (!window) return [];
    window.times = window.times.filter((t) => t > now - windowMs);
    if (window.times.length === 0) map.delete(key);
    return window.times;
  }

  private push(map: Map<string, Window>, key: string, now: number): void {
    const window = map.get(key) ?? { times: [] };
    window.times.push(now);
    // Keep the maps from growing without bound under a spray of usernames.
    if (window.times.length > 50) window.times.splice(0, window.times.length - 50);
    map.set(key, window);
    if (map.size > 10_000) map.delete(map.keys().next().value!);
  }
}
