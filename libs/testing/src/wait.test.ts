import { describe, expect, it } from 'vitest';
import { uniqueName, uniqueNameTime } from './wait.js';

describe('uniqueNameTime', () => {
  it('reads back when uniqueName made a name', () => {
    const before = Date.now();
    const made = uniqueNameTime(uniqueName('plans'));
    expect(made).toBeGreaterThanOrEqual(before);
    expect(made).toBeLessThanOrEqual(Date.now());
  });

  it('knows no other name: a deployment database, a topic, a name with more after it', () => {
    for (const name of ['platform', 'links.clicks', 'plans_mwvnbvcl', 'plans_mwvnbvcl_e0336f.links.clicks', 'Plans_mwvnbvcl_e0336f']) {
      expect(uniqueNameTime(name)).toBeUndefined();
    }
  });
});
