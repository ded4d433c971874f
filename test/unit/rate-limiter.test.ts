import { ClientRateLimiter } from '../../infra/local/rate-limiter';

function limiter(rateLimit: number, burstLimit: number) {
  let now = 1_000_000;
  const clock = { advance: (ms: number) => (now += ms) };
  return { limiter: new ClientRateLimiter({ rateLimit, burstLimit }, () => now), clock };
}

describe('per-client token bucket', () => {
  it('lets a burst through, then refuses with the seconds until the next token', () => {
    const { limiter: bucket } = limiter(2, 3);
    expect([1, 2, 3].map(() => bucket.take('a').allowed)).toEqual([true, true, true]);
    expect(bucket.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the steady rate, never above the burst', () => {
    const { limiter: bucket, clock } = limiter(10, 2);
    bucket.take('a');
    bucket.take('a');
    expect(bucket.take('a').allowed).toBe(false);
    clock.advance(100);
    expect(bucket.take('a').allowed).toBe(true);
    expect(bucket.take('a').allowed).toBe(false);
    clock.advance(60_000);
    expect([1, 2, 3].map(() => bucket.take('a').allowed)).toEqual([true, true, false]);
  });

  it('keeps one bucket per client', () => {
    const { limiter: bucket } = limiter(1, 1);
    expect(bucket.take('a').allowed).toBe(true);
    expect(bucket.take('a').allowed).toBe(false);
    expect(bucket.take('b').allowed).toBe(true);
  });

  it('answers Retry-After in whole seconds for slow rates', () => {
    const { limiter: bucket } = limiter(0.2, 1);
    bucket.take('a');
    expect(bucket.take('a')).toEqual({ allowed: false, retryAfterSeconds: 5 });
  });

  it('refuses settings that would throttle everything', () => {
    expect(() => new ClientRateLimiter({ rateLimit: 0, burstLimit: 1 })).toThrow(/rateLimit/);
    expect(() => new ClientRateLimiter({ rateLimit: 1, burstLimit: 0 })).toThrow(/burstLimit/);
  });
});
