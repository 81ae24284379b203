import { describe, expect, it } from 'vitest';
import { startDemo } from '../../../src/demo/server.js';
import { demoRequest, expectList } from '../../helpers/demo.js';

describe('demo control plane: scale', () => {
  it('is deterministic for a seed', async () => {
    const [a, b] = [await startDemo({ seed: 7 }), await startDemo({ seed: 7 })];
    try {
      const pick = async (handle: typeof a) =>
        (await demoRequest(handle.regions[0]!, '/users?limit=20')).body._embedded.items.map((u: any) => [
          u.id,
          u.email,
          u.role_id,
        ]);
      expect(await pick(a)).toEqual(await pick(b));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  // Real start-up time and memory go in the report; this bound only catches a gross regression.
  it('starts with 100,000 tasks and 10,000 users per region at scale 100', { timeout: 90_000 }, async () => {
    const started = Date.now();
    const demo = await startDemo({ scale: 100 });
    try {
      expect(Date.now() - started).toBeLessThan(60_000);
      const region = demo.regions[0]!;
      const users = await demoRequest(region, '/users?limit=100');
      expectList('users.v2', users.body);
      expect(users.body.total_count).toBe(10_000);
      const lastTasks = await demoRequest(region, '/tasks?limit=100&start=1000');
      expectList('tasks.v1', lastTasks.body);
      expect(lastTasks.body._links.next).toBeDefined();
    } finally {
      await demo.close();
    }
  });
});
