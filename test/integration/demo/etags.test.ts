// The demo tags every successful read (the index, list pages, records) with an ETag and answers a
// request that names the current tag in If-None-Match with 304 and no body.
import { describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ scale: 1, taskSpeed: 50 });

describe('demo ETags', () => {
  it.each(['/', '/users?limit=3', '/policies?limit=1'])(
    '%s: 200 with an ETag, then 304 with no body for that tag',
    async (path) => {
      const first = await demoRequest(demo.region, path);
      const etag = first.headers.get('etag');
      expect(first.status).toBe(200);
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await demoRequest(demo.region, path, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      expect(again.headers.get('etag')).toBe(etag);
      const stale = await demoRequest(demo.region, path, { headers: { 'If-None-Match': 'W/"something-else"' } });
      expect(stale.status).toBe(200);
    },
  );

  it('a record in another version has another tag', async () => {
    const page = await demoRequest(demo.region, '/users?limit=1');
    const self = page.body._embedded.items[0]._links.self.href as string;
    const v1 = await demoRequest(demo.region, self, { headers: { Accept: 'application/api.service.users=v1+json' } });
    const v2 = await demoRequest(demo.region, self, { headers: { Accept: 'application/api.service.users=v2+json' } });
    expect(v1.headers.get('etag')).not.toBe(v2.headers.get('etag'));
  });

  it('a task that moves gets a new tag', async () => {
    const running = await demoRequest(
      demo.region,
      `/tasks?limit=1&filter=${encodeURIComponent('{"status":{"$eq":"in_progress"}}')}`,
    );
    const self = running.body._embedded.items[0]._links.self.href as string;
    const before = await demoRequest(demo.region, self);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await demoRequest(demo.region, self, { headers: { 'If-None-Match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.body.progress_percentage).not.toBe(before.body.progress_percentage);
  });
});
