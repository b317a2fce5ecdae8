import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';

describe('parseArgs', () => {
  it('splits positionals, valued flags and switches', () => {
    expect(parseArgs(['keys', 'create', 'usermgmt', '--environment', 'env_1', '--name=prod', '--json'])).toEqual({
      positionals: ['keys', 'create', 'usermgmt'],
      flags: { environment: 'env_1', name: 'prod', json: true },
    });
  });
});
