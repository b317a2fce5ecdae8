import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { validateJwtTemplate } from './jwt-template.js';

describe('validateJwtTemplate', () => {
  it.each([
    '{"email": {{user.email}}}',
    '{"name": "{{user.first_name}} {{user.last_name}}", "env": "{{environment.id}}"}',
    '{"plan": {{ user.metadata.plan }}, "nested": {"id": {{user.id}}}}',
    '{"quote": "say \\"{{user.id}}\\""}',
  ])('accepts %s', (content) => {
    expect(() => validateJwtTemplate(content)).not.toThrow();
  });

  it.each([
    ['{"a": {{user.password}}}', /unknown placeholder \{\{user.password\}\}/],
    ['{"a": {{user.id}}', /valid JSON/],
    ['[{{user.id}}]', /JSON object/],
    ['{"a": {{user.id}', /unclosed/],
    ['{"sub": {{user.id}}}', /reserved claims: sub/],
    ['not json', /valid JSON/],
  ])('rejects %s', (content, message) => {
    try {
      validateJwtTemplate(content);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toMatch(message);
      expect((error as InputError).issues[0]?.field).toBe('content');
    }
  });
});
