/**
 * The JSON Schemas of shared/schemas as the OpenAPI document holds them. A schema the modules export
 * under a name (`customerSchema`) becomes a component (`Customer`), and wherever another schema
 * contains that very object (the schemas are built from one another: a customer list holds the
 * customer schema itself) the document refers to the component instead of repeating it. So the
 * document has one component per named schema it uses, and none it does not use.
 */
import { PATTERN_MESSAGE } from '../request-ajv';

export type JsonObject = { [key: string]: unknown };

/** `customerSchema` -> `Customer`: the export's name without its suffix, capitalised. */
export function componentName(exportName: string): string {
  if (!exportName.endsWith('Schema')) throw new Error(`${exportName} is not a schema's export name`);
  const base = exportName.slice(0, -'Schema'.length);
  return base.charAt(0).toUpperCase() + base.slice(1);
}

export const schemaRef = (component: string): JsonObject => ({ $ref: `#/components/schemas/${component}` });

export class SchemaComponents {
  /** Component name -> its schema as the document holds it, in the order they were first used. */
  readonly schemas = new Map<string, JsonObject>();
  private readonly nameOf = new Map<object, string>();

  constructor(private readonly named: ReadonlyMap<string, object>) {
    for (const [exportName, schema] of named) {
      // Two names for one object: the document names it once, by the first name in export order.
      if (!this.nameOf.has(schema)) this.nameOf.set(schema, componentName(exportName));
    }
  }

  /** The named schema as a component, referred to. */
  refer(exportName: string): JsonObject {
    return this.value(this.lookup(exportName)) as JsonObject;
  }

  /** The named schema written out where it is used (a query string's, whose properties become parameters). */
  inline(exportName: string): JsonObject {
    return this.body(this.lookup(exportName) as JsonObject);
  }

  private lookup(exportName: string): object {
    const schema = this.named.get(exportName);
    if (!schema) throw new Error(`No schema of shared/schemas is exported as ${exportName}`);
    return schema;
  }

  private value(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (typeof value !== 'object' || value === null) return value;
    const name = this.nameOf.get(value);
    if (name === undefined) return this.body(value as JsonObject);
    if (!this.schemas.has(name)) {
      // Reserved before its body is converted: a schema that contained itself would refer to itself.
      this.schemas.set(name, {});
      this.schemas.set(name, this.body(value as JsonObject));
    }
    return schemaRef(name);
  }

  /**
   * One schema's keywords. `patternMessage`, ours, says in words what a pattern expects: the document
   * says it as the schema's description, where readers and tools look for it.
   */
  private body(schema: JsonObject): JsonObject {
    const converted: JsonObject = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === PATTERN_MESSAGE) {
        if (schema['description'] === undefined) converted['description'] = value;
        continue;
      }
      converted[keyword] = this.value(value);
    }
    return converted;
  }
}
