import { describe, expect, it } from 'vitest';
import { demoRequest, expectError, expectList, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ scale: 1 });

describe('demo control plane: pagination', () => {
  it('leads through every page exactly once by next links, keeping limit and filter', async () => {
    const filter = JSON.stringify({ is_enabled: { $eq: true } });
    let href: string | undefined = `/users?limit=7&filter=${encodeURIComponent(filter)}`;
    const seenPages = new Set<string>();
    const ids: string[] = [];
    let first: any;
    let last: any;
    while (href) {
      expect(seenPages.has(href)).toBe(false);
      seenPages.add(href);
      const page = await demoRequest(demo.region, href);
      expect(page.status).toBe(200);
      expectList('users.v2', page.body);
      first ??= page.body;
      last = page.body;
      expect(page.body.start).toBe(String(seenPages.size));
      expect(page.body.current_count).toBe(page.body._embedded.items.length);
      for (const link of Object.values(page.body._links) as { href: string }[]) {
        const url = new URL(link.href, demo.region.baseUrl);
        expect(url.searchParams.get('limit')).toBe('7');
        expect(url.searchParams.get('filter')).toBe(filter);
      }
      if (seenPages.size > 1) expect(page.body._links.prev).toBeDefined();
      ids.push(...page.body._embedded.items.map((u: { id: string }) => u.id));
      href = page.body._links.next?.href;
    }
    expect(first._links.prev).toBeUndefined();
    expect(last._links.self.href).toBe(first._links.last.href);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(first.total_count);
    expect(seenPages.size).toBe(first.total_pages_count);
    expect(first.total_pages_count).toBe(Math.ceil(first.total_count / 7));
    expect(first.total_count).toBeGreaterThan(50);
  });

  it('walks back by prev links to the first page', async () => {
    const start = await demoRequest(demo.region, '/roles?limit=2');
    let page = await demoRequest(demo.region, start.body._links.last.href);
    let steps = 0;
    while (page.body._links.prev) {
      page = await demoRequest(demo.region, page.body._links.prev.href);
      steps++;
    }
    expect(page.body.start).toBe('1');
    expect(steps).toBe(start.body.total_pages_count - 1);
  });

  it('defaults to 10 records on page 1; the audit trail leaves out its totals, as the spec shows for some lists', async () => {
    const users = await demoRequest(demo.region, '/users');
    expect(users.body.current_count).toBe(10);
    expect(users.body.start).toBe('1');
    const tasks = await demoRequest(demo.region, '/tasks');
    expectList('tasks.v1', tasks.body);
    expect(tasks.body.current_count).toBe(10);
    expect(tasks.body.total_count).toBeGreaterThan(10);
    const trail = await demoRequest(demo.region, '/audit-trails');
    expect(trail.body.current_count).toBe(10);
    expect(trail.body).not.toHaveProperty('total_count');
    expect(trail.body._links.last).toBeDefined();
  });

  it('serves up to 100 records a page and answers 400 outside 1..100', async () => {
    expect((await demoRequest(demo.region, '/tasks?limit=100')).body.current_count).toBe(100);
    for (const limit of ['0', '101', '-1', 'ten', '2.5', '']) {
      expectError(await demoRequest(demo.region, `/tasks?limit=${limit}`), 400, 'invalid_page_size');
    }
  });

  it('answers 400 to a page number that is not one, or is past the last page', async () => {
    expectError(await demoRequest(demo.region, '/users?start=0'), 400, 'invalid_page');
    expectError(await demoRequest(demo.region, '/users?start=x'), 400, 'invalid_page');
    expectError(await demoRequest(demo.region, '/users?limit=100&start=999'), 400, 'page_out_of_range');
  });

  it('answers an empty first page when nothing matches', async () => {
    const response = await demoRequest(
      demo.region,
      `/users?filter=${encodeURIComponent('{"email":{"$eq":"nobody@nowhere"}}')}`,
    );
    expectList('users.v2', response.body);
    expect(response.body).toMatchObject({ current_count: 0, total_count: 0, total_pages_count: 1, start: '1' });
    expect(response.body._links.next).toBeUndefined();
  });
});
