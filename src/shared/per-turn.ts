// A value worked out at most once per turn of the event loop: the requests one turn reads arrived
// together, so a check that costs as much as a small answer (has anything changed in the
// database?) is asked for the first of them and holds for the rest. A change committed elsewhere
// while the turn runs shows from the next turn, a fraction of a millisecond later; forget() makes
// the next get() ask again at once (after a write of this process's own).
export class PerTurn<T> {
  private held = false;
  private value: T | undefined;

  constructor(private readonly work: () => T) {}

  get(): T {
    if (!this.held) {
      this.value = this.work();
      this.held = true;
      // setImmediate runs once the poll phase that read this turn's requests is over
      setImmediate(() => this.forget());
    }
    return this.value as T;
  }

  forget(): void {
    this.held = false;
  }
}
