/**
 * A stage's tracing (infra/stages.ts, docs/tracing.md): X-Ray by default; a stage traced by ADOT gives
 * every function the layer, its wrapper, the OpenTelemetry tracer and the span rights, and nothing
 * more than the least-privilege check allows.
 */
import { routesFor } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { bundleTracerOf, XRAY_SPANS_ACTIONS } from '../../infra/constructs/service-function';
import { asArray, functionLogicalId, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';
import { permissionProblems } from './privileges';

const LAYER_ARN = 'arn:aws:lambda:us-east-1:615299751070:layer:AWSOpenTelemetryDistroJs:10';

/** Every function of the route and worker tables, by definition. */
const definitionsOf = (synthed: Synth) => [...routesFor(synthed.settings.sandboxEnabled), ...workers];

const propertiesOf = (synthed: Synth, name: string): Json =>
  resourcesOf(synthed)[functionLogicalId(synthed, name)].Properties;

/** The span actions a function's role holds, and on what. */
const spanGrants = (synthed: Synth, name: string): string[] =>
  roleStatements(synthed, name).flatMap((statement) =>
    asArray<string>(statement.Action)
      .filter((action) => XRAY_SPANS_ACTIONS.includes(action))
      .map((action) => `${action} on ${JSON.stringify(statement.Resource)}`),
  );

test('a stage traced by ADOT gives every function the layer, its wrapper, the OpenTelemetry tracer and the span rights', () => {
  const synthed = synth('dev', {
    settings: (settings) => ({ ...settings, tracing: { kind: 'adot', layerArn: LAYER_ARN } }),
  });
  const definitions = definitionsOf(synthed);
  expect(definitions.length).toBeGreaterThan(workers.length);
  for (const { name } of definitions) {
    const properties = propertiesOf(synthed, name);
    expect(properties.Layers).toEqual([LAYER_ARN]);
    expect(properties.Environment.Variables).toMatchObject({
      AWS_LAMBDA_EXEC_WRAPPER: '/opt/otel-instrument',
      TRACING: 'otel',
    });
    // Lambda still samples and records its own segment, which the spans continue.
    expect(properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(spanGrants(synthed, name)).toEqual(XRAY_SPANS_ACTIONS.map((action) => `${action} on "*"`));
  }
  for (const definition of definitions) expect(permissionProblems(synthed, definition)).toEqual([]);
  // Its functions are bundled with the OpenTelemetry tracer written in (test/unit/dependencies.test.ts).
  expect(bundleTracerOf(synthed.settings.tracing)).toBe('otel');
});

test('the default stages trace with X-Ray alone: no layer, no wrapper, no span rights', () => {
  const synthed = synth('dev');
  expect(synthed.settings.tracing).toEqual({ kind: 'xray' });
  for (const { name } of definitionsOf(synthed)) {
    const properties = propertiesOf(synthed, name);
    expect(properties.Layers).toBeUndefined();
    expect(properties.Environment.Variables).not.toHaveProperty('AWS_LAMBDA_EXEC_WRAPPER');
    expect(properties.Environment.Variables).not.toHaveProperty('TRACING');
    expect(spanGrants(synthed, name)).toEqual([]);
  }
  expect(bundleTracerOf(synthed.settings.tracing)).toBe('xray');
});
