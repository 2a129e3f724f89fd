// An asynchronous read that callers arriving together share. At most one runs at a time, and no
// caller takes the answer of a read that started before it asked: that read may predate a change
// the caller must see. Callers arriving while one runs share the next. Under load, one round trip
// to the database answers every request that arrived during the one before, instead of each
// request waiting for a connection of the pool and a round trip of its own.
export class JoinedRead<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    return (this.next ??= this.running.then(this.startNext, this.startNext));
  }

  private readonly startNext = (): Promise<T> => {
    this.next = null;
    return this.start();
  };

  private start(): Promise<T> {
    const read = this.read();
    this.running = read;
    // Registered before any caller's startNext, so it runs first when the read settles.
    const done = () => {
      if (this.running === read) this.running = null;
    };
    read.then(done, done);
    return read;
  }
}
