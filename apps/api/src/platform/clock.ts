/** Every service takes time from an injected clock, so tests and the test clock can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests, and the development test clock). */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = new Date()) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(milliseconds: number): Date {
    this.current += milliseconds;
    return this.now();
  }
}

/** Another clock shifted forward by a fixed amount (an organization's test clock). */
export class OffsetClock implements Clock {
  constructor(
    readonly base: Clock,
    readonly offsetMilliseconds: number,
  ) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMilliseconds);
  }
}
