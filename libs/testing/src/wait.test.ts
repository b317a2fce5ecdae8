import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { leftBehind } from './left-behind.js';
import { testRunConfig } from './config.js';
import { newTestRunTag, parseUniqueName, uniqueName } from './wait.js';

// `npx vitest run` hands the integration projects' run tag to this project's workers too.
const runOfThisProcess = process.env['PLATFORM_TEST_RUN'];
beforeEach(() => {
  delete process.env['PLATFORM_TEST_RUN'];
  testRunConfig.reset();
});
afterAll(() => {
  if (runOfThisProcess !== undefined) process.env['PLATFORM_TEST_RUN'] = runOfThisProcess;
  testRunConfig.reset();
});

describe('parseUniqueName', () => {
  it('reads back when uniqueName made a name, outside a test run', () => {
    const before = Date.now();
    const made = parseUniqueName(uniqueName('plans'));
    expect(made?.time).toBeGreaterThanOrEqual(before);
    expect(made?.time).toBeLessThanOrEqual(Date.now());
    expect(made?.run).toBeUndefined();
  });

  it('reads back the test run a name was made in', () => {
    const run = newTestRunTag();
    process.env['PLATFORM_TEST_RUN'] = run;
    const name = uniqueName('plans');
    expect(name.endsWith(`_${run}`)).toBe(true);
    expect(parseUniqueName(name)?.run).toBe(run);
  });

  it('refuses a run tag it would not read back, naming the variable', () => {
    process.env['PLATFORM_TEST_RUN'] = 'Not-A-Tag';
    expect(() => uniqueName('plans')).toThrow(/PLATFORM_TEST_RUN/);
  });

  it('knows no other name: a deployment database, a topic, a name with more after it', () => {
    for (const name of [
      'platform',
      'links.clicks',
      'plans_mwvnbvcl',
      'plans_mwvnbvcl_e0336f.links.clicks',
      'Plans_mwvnbvcl_e0336f',
      'plans_mwvnbvcl_e0336f_12',
    ]) {
      expect(parseUniqueName(name)).toBeUndefined();
    }
  });
});

describe('leftBehind', () => {
  const hour = 3600_000;

  it('takes, at a run end, that run names alone, whatever their age', () => {
    const isLeft = leftBehind({ run: 'a1b2c3' });
    expect(isLeft({ time: Date.now(), run: 'a1b2c3' })).toBe(true);
    expect(isLeft({ time: Date.now() - 5 * hour, run: 'ffffff' })).toBe(false);
    expect(isLeft({ time: Date.now() - 5 * hour, run: undefined })).toBe(false);
    expect(isLeft(undefined)).toBe(false);
  });

  it('takes otherwise names older than the age given, of any run or none', () => {
    const isLeft = leftBehind({ maxAgeMs: hour });
    expect(isLeft({ time: Date.now() - 2 * hour, run: 'a1b2c3' })).toBe(true);
    expect(isLeft({ time: Date.now() - 2 * hour, run: undefined })).toBe(true);
    expect(isLeft({ time: Date.now() - hour / 2, run: undefined })).toBe(false);
    expect(isLeft(undefined)).toBe(false);
  });
});
