/**
 * A scheduled worker of the worker table (the sweeper) run by the local runtime: every `intervalMs`
 * (SWEEP_INTERVAL_MS; EventBridge runs it every minute on AWS) its handler gets the event an
 * EventBridge schedule sends. The first run comes a second after the start, so work a stopped or
 * killed run left due is restarted soon (once past its grace). Runs never overlap; a failed run is
 * logged and the next comes on time.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { invokeWithin } from './lambda-context';
import { loggable } from '../../shared/observability/loggable-error';

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

/** The first run after the start: soon, but after the runtime has finished starting. */
const FIRST_RUN_MS = 1_000;

/** SWEEP_INTERVAL_MS: a number of milliseconds, or '0' / 'off' for no runs (undefined: the default). */
export function parseSweepInterval(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'off') return 0;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new Error('SWEEP_INTERVAL_MS must be a number of milliseconds, or off');
  return ms;
}

export class LocalSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private paused = false;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly handler: ScheduledHandler,
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    private readonly log: (message: string, error: unknown) => void = (m, e) => console.error(m, loggable(e)),
  ) {
    this.next(Math.min(FIRST_RUN_MS, intervalMs));
  }

  private next(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      if (!this.paused) this.running = this.run().finally(() => (this.running = undefined));
      this.next(this.intervalMs);
    }, delayMs);
  }

  private async run(): Promise<void> {
    const time = new Date().toISOString();
    const event = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time,
      region: 'local',
      resources: [`arn:aws:events:local:000000000000:rule/${this.name}`],
      detail: {},
    } as ScheduledEvent;
    try {
      await invokeWithin(this.handler, event, this.name, this.timeoutMs);
    } catch (error) {
      this.log(`The scheduled run of ${this.name} failed: the next one comes on time`, error);
    }
  }

  /** No run starts until resume(); waits for the one running. */
  async pause(): Promise<void> {
    this.paused = true;
    await this.running;
  }

  resume(): void {
    this.paused = false;
  }

  /** No more runs; waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/** The schedule of `functions/<file>.ts`, loaded as the local server loads the routes' handlers. */
export async function startLocalSchedule(
  name: string,
  file: string,
  intervalMs: number,
  timeoutMs: number,
): Promise<LocalSchedule> {
  const module = (await import(`../../functions/${file}.ts`)) as { handler: ScheduledHandler };
  return new LocalSchedule(name, module.handler, intervalMs, timeoutMs);
}
