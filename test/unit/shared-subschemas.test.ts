/**
 * The generated validators compile each repeated subschema once (tools/shared-subschemas.ts). They
 * must answer exactly as the schemas compiled inline would: the same verdict and the same errors, in
 * the same order (all but `schemaPath`, which names the shared subschema). Inputs are drawn from each
 * schema itself, valid and broken at every depth, so the deep checks the sharing moved are reached.
 */
import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { requestAjv } from '../../tools/request-ajv';
import { shareRepeatedSubschemas } from '../../tools/shared-subschemas';
import { requestSchemaModules, type SchemaModule } from '../../tools/validators';
import type { SchemaValidator } from '../../shared/schemas/validator';
import { hostileValue } from '../support/hostile-input';

type Schema = Record<string, unknown>;

describe('shareRepeatedSubschemas', () => {
  const participant = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } } };
  const owner = { type: 'object', properties: { participant, name: { type: 'string' } } };

  test('moves a subschema found twice in a schema to one id, referred to where it was, nested ones too', () => {
    const { roots, shared } = shareRepeatedSubschemas({
      order: { type: 'object', properties: { from: owner, to: owner, via: participant } },
    });
    expect(shared).toEqual({
      'order-0': { type: 'object', properties: { participant: { $ref: 'order-1' }, name: { type: 'string' } } },
      'order-1': { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } } },
    });
    expect(roots).toEqual({
      order: {
        type: 'object',
        properties: { from: { $ref: 'order-0' }, to: { $ref: 'order-0' }, via: { $ref: 'order-1' } },
      },
    });
  });

  test('shares within each schema, not across them: a validator used alone pays no call for another', () => {
    const { roots, shared } = shareRepeatedSubschemas({
      a: { type: 'object', properties: { from: owner } },
      b: { type: 'object', properties: { to: owner } },
    });
    expect(shared).toEqual({});
    expect(roots['a']).toEqual({ type: 'object', properties: { from: owner } });
  });

  test('leaves alone what appears once, what is short, and values that are not subschemas', () => {
    const once = { type: 'object', properties: { lone: owner, flag: { type: 'boolean' }, other: { type: 'boolean' } } };
    const { roots, shared } = shareRepeatedSubschemas({ once, list: { enum: [participant, participant] } });
    expect(shared).toEqual({});
    expect(roots).toEqual({ once, list: { enum: [participant, participant] } });
  });

  test('keeps the items of a uniqueItems array inline, where AJV knows their type', () => {
    const events = { type: 'string', enum: ['payment.created', 'payment.settled'] };
    const list = { type: 'array', uniqueItems: true, items: events };
    const { roots, shared } = shareRepeatedSubschemas({
      a: { properties: { list, again: list, other: { items: events } } },
    });
    expect(shared).toEqual({ 'a-0': list });
    expect(roots['a']).toEqual({
      properties: { list: { $ref: 'a-0' }, again: { $ref: 'a-0' }, other: { items: events } },
    });
  });
});

/** Values drawn from a schema: mostly what it describes, each part now and then replaced by anything. */
function valueOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const broken =
    depth > 6
      ? hostileValue
      : fc.oneof({ weight: 1, arbitrary: hostileValue }, { weight: 6, arbitrary: describedBy(schema, depth) });
  return broken;
}

function describedBy(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (branches)
    return fc.oneof(
      ...branches.map((branch) => valueOf({ ...schema, oneOf: undefined, anyOf: undefined, ...branch }, depth + 1)),
    );
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const properties = schema['properties'] as Record<string, Schema> | undefined;
  if (properties || schema['type'] === 'object') {
    const entries = Object.entries(properties ?? {}).map(([name, sub]) => [name, valueOf(sub, depth + 1)] as const);
    return fc
      .tuple(
        fc.record(Object.fromEntries(entries), { requiredKeys: [] }),
        fc.option(fc.dictionary(fc.string({ maxLength: 3 }), hostileValue, { maxKeys: 1 }), { freq: 8 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));
  }
  switch (schema['type']) {
    case 'string':
      return typeof schema['pattern'] === 'string'
        ? fc.oneof(fc.stringMatching(new RegExp(schema['pattern'] as string)), fc.string())
        : fc.string({ maxLength: Number(schema['maxLength'] ?? 20) + 2 });
    case 'integer':
      return fc.integer({ min: Number(schema['minimum'] ?? -10) - 1, max: Number(schema['maximum'] ?? 1_000) + 1 });
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueOf((schema['items'] ?? {}) as Schema, depth + 1), { maxLength: 3 });
    default:
      return hostileValue;
  }
}

/** What a client is told of an error: everything but the path into the schema. */
const told = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map(({ instancePath, keyword, params, message }) => ({ instancePath, keyword, params, message }));

describe('the generated validators answer as the schemas compiled inline', () => {
  let modules: SchemaModule[] = [];
  beforeAll(async () => {
    modules = await requestSchemaModules();
  });

  test('every module is checked, and the network module shares', () => {
    expect(modules.length).toBeGreaterThan(10);
    const network = modules.find((module) => module.name === 'network')!;
    const { shared } = shareRepeatedSubschemas(
      Object.fromEntries(network.schemas.map((s) => [s.schemaName, s.schema])),
    );
    expect(Object.keys(shared).length).toBeGreaterThan(5);
  });

  test('the same verdict and errors for 200 inputs drawn from each schema', async () => {
    let compared = 0;
    let valid = 0;
    let nestedErrors = 0;
    for (const module of modules) {
      const generated = (await import(`../../shared/schemas/generated/${module.name}.js`)) as Record<
        string,
        SchemaValidator<unknown, 'body' | 'query'>
      >;
      for (const { validatorName, schema, part } of module.schemas) {
        const inline = requestAjv(part).compile(schema);
        const fromModule = generated[validatorName]!;
        fc.assert(
          fc.property(valueOf(schema), (input) => {
            // Query validators coerce in place: each gets its own copy.
            const verdict = inline(structuredClone(input));
            const answer = fromModule(structuredClone(input));
            expect({ validatorName, answer, errors: told(fromModule.errors) }).toEqual({
              validatorName,
              answer: verdict,
              errors: told(inline.errors),
            });
            compared++;
            if (verdict) valid++;
            nestedErrors += told(inline.errors).filter((error) => error.instancePath.split('/').length > 2).length;
          }),
          { numRuns: 200, seed: 47 },
        );
      }
    }
    // 200 a validator; the draws reach valid inputs and errors below the top level.
    expect(compared).toBeGreaterThan(8_000);
    expect(valid).toBeGreaterThan(300);
    expect(nestedErrors).toBeGreaterThan(3_000);
  });
});
