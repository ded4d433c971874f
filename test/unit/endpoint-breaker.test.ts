/**
 * The per-endpoint circuit breaker (shared/domain/endpoint-breaker.ts): held back after its failures
 * in a row, one attempt let through after the cool-down, closed by a success, held again by a failure.
 */
import { EndpointBreaker } from '../../shared/domain/endpoint-breaker';

const URL_A = 'https://a.example.com/hook';
const URL_B = 'https://b.example.com/hook';

test('attempts go while failures are fewer than the limit; a success in between starts the count again', () => {
  const breaker = new EndpointBreaker({ failures: 3, coolDownMs: 1_000 });
  breaker.note(URL_A, false, 0);
  breaker.note(URL_A, false, 1);
  breaker.note(URL_A, true, 2);
  breaker.note(URL_A, false, 3);
  breaker.note(URL_A, false, 4);
  expect(breaker.admit(URL_A, 5)).toEqual({ attempt: true });
});

test('held back after the failures, until the cool-down ends; another endpoint is not', () => {
  const breaker = new EndpointBreaker({ failures: 3, coolDownMs: 1_000 });
  for (const at of [0, 1, 2]) breaker.note(URL_A, false, at);
  expect(breaker.admit(URL_A, 500)).toEqual({ attempt: false, untilMs: 1_002 });
  expect(breaker.admit(URL_B, 500)).toEqual({ attempt: true });
});

test('after the cool-down, one attempt goes and the others wait for it; its success closes the breaker', () => {
  const breaker = new EndpointBreaker({ failures: 2, coolDownMs: 1_000 });
  breaker.note(URL_A, false, 0);
  breaker.note(URL_A, false, 0);
  expect(breaker.admit(URL_A, 1_000)).toEqual({ attempt: true });
  expect(breaker.admit(URL_A, 1_001)).toEqual({ attempt: false, untilMs: 2_001 });
  breaker.note(URL_A, true, 1_200);
  expect(breaker.admit(URL_A, 1_201)).toEqual({ attempt: true });
  expect(breaker.admit(URL_A, 1_202)).toEqual({ attempt: true });
});

test('the attempt after the cool-down failing holds the endpoint back for another cool-down', () => {
  const breaker = new EndpointBreaker({ failures: 2, coolDownMs: 1_000 });
  breaker.note(URL_A, false, 0);
  breaker.note(URL_A, false, 0);
  expect(breaker.admit(URL_A, 1_000)).toEqual({ attempt: true });
  breaker.note(URL_A, false, 1_500);
  expect(breaker.admit(URL_A, 1_600)).toEqual({ attempt: false, untilMs: 2_500 });
  expect(breaker.admit(URL_A, 2_500)).toEqual({ attempt: true });
});
