import { describe, expect, it } from 'vitest';
import { frameworkStatuses } from './framework-statuses.js';

describe('frameworkStatuses', () => {
  it('names what Fastify itself can answer for a route', () => {
    expect(frameworkStatuses({ method: 'GET', url: '/v2/teams' })).toEqual([500, 503]);
    expect(frameworkStatuses({ method: 'GET', url: '/v2/teams', schema: { querystring: {} } })).toEqual([
      400, 500, 503,
    ]);
    expect(frameworkStatuses({ method: 'GET', url: '/v2/teams/:teamId' })).toEqual([414, 500, 503]);
    expect(frameworkStatuses({ method: 'DELETE', url: '/v2/teams/:teamId' })).toEqual([400, 413, 414, 415, 500, 503]);
    expect(frameworkStatuses({ method: ['POST'], url: '/shrink' })).toEqual([400, 413, 415, 500, 503]);
  });
});
