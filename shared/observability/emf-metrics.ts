/**
 * The functions' CloudWatch metrics: Embedded Metric Format log lines, written exactly as Powertools'
 * Metrics writes them (it was the functions' metrics library; this is ≈15 KB less in every bundle,
 * and test/unit/emf-metrics.test.ts compares the two line for line). What the functions use, and
 * nothing else: a `service` default dimension, one dimension set and the metrics of each invocation,
 * published by the middleware at the end of it, and a `ColdStart` metric on an environment's first
 * invocation. POWERTOOLS_METRICS_DISABLED (or POWERTOOLS_DEV) keeps everything silent.
 */
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { coldStartTracker } from './cold-start';

/** The CloudWatch units the functions use. */
export const MetricUnit = { Count: 'Count', Seconds: 'Seconds', Milliseconds: 'Milliseconds' } as const;
export type MetricUnit = (typeof MetricUnit)[keyof typeof MetricUnit];

const COLD_START_METRIC = 'ColdStart';
const TRUTHY = ['1', 'y', 'yes', 't', 'true', 'on'];

type Dimensions = Record<string, string>;

interface StoredMetric {
  readonly unit: MetricUnit;
  /** One value, or several when the metric was added more than once in the invocation. */
  value: number | number[];
}

const isTrue = (value: string | undefined): boolean => TRUTHY.includes((value ?? '').trim().toLowerCase());

/** As Powertools: an explicit POWERTOOLS_METRICS_DISABLED decides; otherwise development mode disables. */
function metricsDisabled(): boolean {
  const disabled = process.env['POWERTOOLS_METRICS_DISABLED'];
  return disabled !== undefined ? isTrue(disabled) : isTrue(process.env['POWERTOOLS_DEV']);
}

export interface MetricsOptions {
  readonly namespace: string;
  readonly serviceName: string;
}

export class EmfMetrics {
  private readonly defaultDimensions: Dimensions;
  private dimensionSets: Dimensions[] = [];
  private metrics = new Map<string, StoredMetric>();
  /** True once: on the first invocation of an environment initialized on demand. */
  private readonly isColdStart = coldStartTracker();

  constructor(private readonly options: MetricsOptions) {
    this.defaultDimensions = { service: options.serviceName };
  }

  /** A dimension set of the metrics published next. */
  addDimensions(dimensions: Dimensions): this {
    this.dimensionSets.push({ ...dimensions });
    return this;
  }

  addMetric(name: string, unit: MetricUnit, value: number): this {
    const stored = this.metrics.get(name);
    if (!stored) this.metrics.set(name, { unit, value });
    else stored.value = [stored.value, value].flat();
    return this;
  }

  /** Whether a metric was added since the last publication. */
  hasStoredMetrics(): boolean {
    return this.metrics.size > 0;
  }

  /** Writes the stored metrics as one EMF line (none when there are none) and forgets them. */
  publishStoredMetrics(): this {
    try {
      if (this.metrics.size === 0) {
        process.stderr.write(
          'No application metrics to publish. The cold-start metric may be published if enabled. ' +
            'If application metrics should never be empty, consider using `throwOnEmptyMetrics`\n',
        );
      } else if (!metricsDisabled()) {
        this.write(
          this.dimensionSets.map((set) => [...new Set([...Object.keys(this.defaultDimensions), ...Object.keys(set)])]),
          {
            ...this.defaultDimensions,
            ...Object.assign({}, ...this.dimensionSets),
          },
        );
      }
    } finally {
      this.metrics = new Map();
      this.dimensionSets = [];
    }
    return this;
  }

  /**
   * A metric published at once on a line of its own, with the service dimension alone (as Powertools'
   * singleMetric): what an alarm sums or divides whatever the route, without one metric per route.
   */
  singleMetric(): { addMetric(name: string, unit: MetricUnit, value: number): void } {
    return {
      addMetric: (name, unit, value) => {
        if (metricsDisabled()) return;
        this.writeLine([Object.keys(this.defaultDimensions)], this.defaultDimensions, { [name]: { unit, value } });
      },
    };
  }

  /** On an environment's first invocation, a ColdStart metric of its own, by function name. */
  captureColdStartMetric(functionName: string | undefined): void {
    if (!this.isColdStart() || metricsDisabled()) return;
    const name = functionName?.trim();
    const dimensions: Dimensions = { ...this.defaultDimensions, ...(name ? { function_name: name } : {}) };
    this.writeLine([Object.keys(dimensions)], dimensions, {
      [COLD_START_METRIC]: { unit: MetricUnit.Count, value: 1 },
    });
  }

  private write(dimensionNames: string[][], dimensions: Dimensions): void {
    this.writeLine(
      dimensionNames.length > 0 ? dimensionNames : [Object.keys(this.defaultDimensions)],
      dimensions,
      Object.fromEntries(this.metrics),
    );
  }

  private writeLine(dimensionNames: string[][], dimensions: Dimensions, metrics: Record<string, StoredMetric>): void {
    const line = {
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: this.options.namespace,
            Dimensions: dimensionNames,
            Metrics: Object.entries(metrics).map(([Name, { unit }]) => ({ Name, Unit: unit })),
          },
        ],
      },
      ...dimensions,
      ...Object.fromEntries(Object.entries(metrics).map(([name, { value }]) => [name, value])),
    };
    // Straight to stdout: Lambda's console prefixes its lines, and an EMF line must be JSON alone.
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

/**
 * Publishes each invocation's metrics when it ends, well or badly, and the ColdStart metric on the
 * first one (Powertools' logMetrics middleware with captureColdStartMetric).
 */
export function logMetrics(metrics: EmfMetrics): MiddlewareObj<unknown, unknown, Error, Context> {
  return {
    before: (request) => metrics.captureColdStartMetric(request.context.functionName),
    after: () => {
      metrics.publishStoredMetrics();
    },
    onError: () => {
      metrics.publishStoredMetrics();
    },
  };
}
