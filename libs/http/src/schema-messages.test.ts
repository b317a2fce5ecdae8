import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { validationError } from './fastify-errors.js';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, verbose: true, strict: false }));

function issuesOf(schema: object, value: unknown, context = 'body') {
  const validate = ajv.compile(schema);
  expect(validate(value)).toBe(false);
  return validationError(validate.errors as never, context);
}

const Endpoint = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 20 }),
    status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
    name: Type.Optional(
      Type.String({ minLength: 1, errorMessage: 'is the name shown on the dashboard, 1 character or more' }),
    ),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })),
  },
  { additionalProperties: false },
);

describe('validation issues', () => {
  it('name each field at fault in words, never Ajv raw text', () => {
    const error = issuesOf(Endpoint, { url: 'x'.repeat(21), status: 'paused', tags: ['a', 'b', 'c'], colour: 'red' });
    expect(error.code).toBe('validation_failed');
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { field: 'url', code: 'invalid_maxLength', message: 'url must be at most 20 characters long' },
        { field: 'url', code: 'invalid_format', message: 'url must be a valid uri' },
        { field: 'status', code: 'invalid_anyOf', message: 'status must be one of "enabled", "disabled"' },
        { field: 'tags', code: 'invalid_maxItems', message: 'tags must have at most 2 items' },
        { field: 'colour', code: 'unknown_field', message: 'colour is not a known field' },
      ]),
    );
    // A union's branches are not reported one by one.
    expect(error.issues.filter((i) => i.field === 'status')).toHaveLength(1);
  });

  it('says a missing field is required, and uses a schema’s own message', () => {
    const error = issuesOf(Endpoint, { name: '' });
    expect(error.issues).toEqual([
      { field: 'url', code: 'url_required', message: 'url is required' },
      {
        field: 'name',
        code: 'invalid_minLength',
        message: 'name is the name shown on the dashboard, 1 character or more',
      },
    ]);
  });

  it('codes each part of the request apart', () => {
    expect(issuesOf(Type.Object({ limit: Type.Integer() }), { limit: 'x' }, 'querystring').code).toBe('invalid_query');
    expect(issuesOf(Type.Object({ id: Type.String({ minLength: 2 }) }), { id: 'x' }, 'params').code).toBe(
      'invalid_params',
    );
  });

  it('names a member name that breaks the rule on names once', () => {
    const Metadata = Type.Record(Type.String(), Type.String(), { propertyNames: { minLength: 1, maxLength: 3 } });
    expect(issuesOf(Type.Object({ metadata: Metadata }), { metadata: { long: 'x' } }).issues).toEqual([
      {
        field: 'metadata',
        code: 'invalid_key',
        message: 'metadata has a member name that is not allowed: "long"',
      },
    ]);
  });
});
