import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { renderJwtTemplate, validateJwtTemplate, type JwtTemplateContext } from './jwt-template.js';

describe('validateJwtTemplate', () => {
  it.each([
    '{"email": {{user.email}}}',
    '{"name": "{{user.first_name}} {{user.last_name}}", "env": "{{environment.id}}"}',
    '{"plan": {{ user.metadata.plan }}, "nested": {"id": {{user.id}}}}',
    '{"quote": "say \\"{{user.id}}\\""}',
    `{"name": "{{ user.first_name || 'Guest' }}", "id": {{ user.external_id || user.id }}}`,
    '{"who": {{ user.metadata.nick || user.first_name || "someone" }}}',
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

describe('JWT template errors', () => {
  it('name the line and column of what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['{\n  "a": {{ user.nope }}\n}', /unknown placeholder \{\{user.nope\}\} at line 2, column 11/],
      ['{\n  "a": {{ user.id user.email }}\n}', /expects \|\| or \}\} at line 2, column 19/],
      [
        '{"a": {{ \'Guest }}}',
        /unclosed \{\{ placeholder at line 1, column 7|unclosed string literal at line 1, column 10/,
      ],
      ['{\n  "a": 1,\n  "b" 2\n}', /valid JSON .* at line 3, column 7/],
    ];
    for (const [content, message] of cases) expect(() => validateJwtTemplate(content), content).toThrow(message);
  });
});

describe('renderJwtTemplate', () => {
  const context = (user: Partial<JwtTemplateContext['user']> = {}): JwtTemplateContext => ({
    environment: { id: 'environment_1' },
    user: {
      id: 'user_1',
      email: 'grace@example.com',
      email_verified: true,
      first_name: null,
      last_name: 'Hopper',
      external_id: null,
      metadata: { plan: 'pro' },
      ...user,
    },
    organization: null,
  });

  it("fills values and strings, taking each expression's first operand with a value", () => {
    const content = `{"name": "{{ user.first_name || 'Guest' }} {{ user.last_name }}", "id": {{ user.external_id || user.id }}, "verified": {{ user.email_verified }}, "plan": {{ user.metadata.plan }}, "org": {{ organization.id }}}`;
    expect(renderJwtTemplate(content, context())).toEqual({
      name: 'Guest Hopper',
      id: 'user_1',
      verified: true,
      plan: 'pro',
      org: null,
    });
    expect(renderJwtTemplate(content, context({ first_name: 'Grace', external_id: 'crm-7' }))).toMatchObject({
      name: 'Grace Hopper',
      id: 'crm-7',
    });
  });

  it('refuses a draft that is not a template as the template it is not (422), never as a crash', () => {
    for (const content of ['\u009f\u009aD]', '[{{ user.id }}]', '{"sub": {{ user.id }}}'])
      expect(() => renderJwtTemplate(content, context()), content).toThrow(InputError);
  });

  it('escapes what it splices into a string', () => {
    expect(renderJwtTemplate('{"n": "<{{ user.first_name }}>"}', context({ first_name: 'a"b\\c' }))).toEqual({
      n: '<a"b\\c>',
    });
  });
});
