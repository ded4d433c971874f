/**
 * The baseline's validators: the same schemas and AJV options as the generated validators
 * (tools/validators.ts), compiled in the function itself, as the functions did before validators were
 * generated at build time. A validator compiles on its first use, so a function compiles only the
 * schemas it uses, once, within its cold start.
 */
import type { ValidateFunction } from 'ajv';
import { requestAjv, type RequestPart } from '../../../tools/request-ajv';

const ajvs = new Map<RequestPart, ReturnType<typeof requestAjv>>();

export function compiledAtColdStart(schema: Record<string, unknown>, part: RequestPart) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    if (!compiled) {
      if (!ajvs.has(part)) ajvs.set(part, requestAjv(part));
      compiled = ajvs.get(part)!.compile(schema);
    }
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = undefined as ValidateFunction['errors'];
  return validate;
}
