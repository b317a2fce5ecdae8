/**
 * Validation of custom resources against the OpenAPI v3 schemas of their CustomResourceDefinitions, as the API server
 * does it: the CRDs come from deploy/local/crds.sh (KEDA's as released, Strimzi's as its own generator writes them),
 * their structural schemas are compiled with Ajv, and a field the schema does not declare is an error (the API server
 * prunes it, and rejects it under strict field validation, the default of `kubectl apply`). CEL rules
 * (x-kubernetes-validations) are not evaluated.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

type Schema = { [key: string]: unknown };
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Kubernetes structural schema as plain JSON Schema for Ajv. */
function toJsonSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-kubernetes-') || key === 'format' || key === 'description') continue;
    if (key === 'properties' && isSchema(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, isSchema(s) ? toJsonSchema(s) : s]),
      );
    else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isSchema(value))
      out[key] = toJsonSchema(value);
    else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value))
      out[key] = value.map((s) => (isSchema(s) ? toJsonSchema(s) : s));
    else out[key] = value;
  }
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out['type'];
    out['anyOf'] = [{ type: 'integer' }, { type: 'string' }];
  }
  const open =
    schema['x-kubernetes-preserve-unknown-fields'] === true || schema['x-kubernetes-embedded-resource'] === true;
  if (out['type'] === 'object' && out['properties'] !== undefined && out['additionalProperties'] === undefined && !open)
    out['additionalProperties'] = false;
  // The API server checks required fields of a nullable field only when it is present.
  if (out['nullable'] === true && out['type'] !== undefined) {
    out['type'] = [out['type'], 'null'].flat();
    delete out['nullable'];
  }
  return out;
}

export interface CrdValidator {
  /** `group/version Kind` of every served version found. */
  readonly kinds: ReadonlySet<string>;
  /** Errors of one custom resource ([] when valid); undefined when no CRD defines its kind. */
  errors(o: { apiVersion: string; kind: string }): string[] | undefined;
}

export function loadCrds(dir: string): CrdValidator {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const schemas = new Map<string, Schema>();
  const validators = new Map<string, ValidateFunction>();
  // Compiled on first use: Strimzi's Kafka schema alone takes seconds.
  const validator = (key: string): ValidateFunction | undefined => {
    const schema = schemas.get(key);
    if (!schema) return undefined;
    let validate = validators.get(key);
    if (!validate) validators.set(key, (validate = ajv.compile(toJsonSchema(schema))));
    return validate;
  };
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const crd = doc.toJS() as Schema | null;
      if (!crd || crd['kind'] !== 'CustomResourceDefinition') continue;
      const spec = crd['spec'] as {
        group: string;
        names: { kind: string };
        versions: Array<{ name: string; served: boolean; schema?: { openAPIV3Schema?: Schema } }>;
      };
      for (const version of spec.versions) {
        const schema = version.schema?.openAPIV3Schema;
        if (!version.served || !schema) continue;
        schemas.set(`${spec.group}/${version.name} ${spec.names.kind}`, schema);
      }
    }
  }
  if (schemas.size === 0) throw new Error(`no CustomResourceDefinitions under ${dir} (deploy/local/crds.sh install)`);
  return {
    kinds: new Set(schemas.keys()),
    errors(o) {
      const validate = validator(`${o.apiVersion} ${o.kind}`);
      if (!validate) return undefined;
      if (validate(o)) return [];
      return (validate.errors ?? []).map((e) =>
        e.keyword === 'additionalProperties'
          ? `${e.instancePath || '/'} unknown field '${String((e.params as { additionalProperty: string }).additionalProperty)}'`
          : `${e.instancePath || '/'} ${e.message ?? e.keyword}`,
      );
    },
  };
}
