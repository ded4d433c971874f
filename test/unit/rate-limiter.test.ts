import { StageThrottle } from '../../infra/local/rate-limiter';

function throttle(rateLimit: number, burstLimit: number) {
  let now = 1_000_000;
  const clock = { advance: (ms: number) => (now += ms) };
  return { bucket: new StageThrottle({ rateLimit, burstLimit }, () => now), clock };
}

describe("the stage's token bucket", () => {
  it('lets a burst through, then refuses with the seconds until the next token', () => {
    const { bucket } = throttle(2, 3);
    expect([1, 2, 3].map(() => bucket.take().allowed)).toEqual([true, true, true]);
    expect(bucket.take()).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the steady rate, never above the burst', () => {
    const { bucket, clock } = throttle(10, 2);
    bucket.take();
    bucket.take();
    expect(bucket.take().allowed).toBe(false);
    clock.advance(100);
    expect(bucket.take().allowed).toBe(true);
    expect(bucket.take().allowed).toBe(false);
    clock.advance(60_000);
    expect([1, 2, 3].map(() => bucket.take().allowed)).toEqual([true, true, false]);
  });

  it('answers Retry-After in whole seconds for slow rates', () => {
    const { bucket } = throttle(0.2, 1);
    bucket.take();
    expect(bucket.take()).toEqual({ allowed: false, retryAfterSeconds: 5 });
  });

  it('refuses settings that would throttle everything', () => {
    expect(() => new StageThrottle({ rateLimit: 0, burstLimit: 1 })).toThrow(/rateLimit/);
    expect(() => new StageThrottle({ rateLimit: 1, burstLimit: 0 })).toThrow(/burstLimit/);
  });
});
