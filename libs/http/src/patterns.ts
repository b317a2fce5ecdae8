/**
 * JSON Schema `pattern`s the gateways share, written so that JavaScript (Ajv, with the `u` flag) and other
 * engines (the fuzzers' Python) read them alike: no `\s`, whose members differ between them.
 */

/** Some character that is not white space (JavaScript's `trim()` set): text that is not blank. */
export const NOT_BLANK = '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';
