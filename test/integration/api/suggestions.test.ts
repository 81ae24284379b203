// Filter value suggestions from records read over HTTP: the schema's enum when dpx knows one (and it
// covers every value the demo sends), else the values of the loaded rows.
import { describe, expect, it } from 'vitest';
import { listRequest, walkPages } from '../../../src/api/session/pages.js';
import { Session } from '../../../src/api/session/session.js';
import { valueSuggestions } from '../../../src/api/hal/suggestions.js';
import { valueAt } from '../../../src/api/json.js';
import { useDemo } from '../../helpers/demo.js';

const demo = useDemo({ scale: 1 });

async function everyRecord(resource: string): Promise<Record<string, unknown>[]> {
  const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
  const records: Record<string, unknown>[] = [];
  for await (const page of walkPages(session, await listRequest(session, { resource, pageSize: 100 })))
    records.push(...page.items);
  return records;
}

describe('valueSuggestions over records from the demo', () => {
  it("offers the schema's enum, which holds every value the server sends", async () => {
    const cases: [string, string[]][] = [
      ['alerts', ['severity', 'status']],
      ['backups', ['backup_type', 'status', 'storage_tier']],
      ['protection-groups', ['source_type']],
      ['tasks', ['initiated_by.type']],
    ];
    for (const [resource, fields] of cases) {
      const records = await everyRecord(resource);
      for (const field of fields) {
        const suggested = valueSuggestions({ resource, version: 'v1', field }, records);
        expect(suggested.source, `${resource} ${field}`).toBe('schema');
        const seen = new Set(records.map((record) => valueAt(record, field)));
        expect(seen.size, `${resource} ${field}`).toBeGreaterThan(1);
        for (const value of seen) expect(suggested.values, `${resource} ${field}`).toContain(value);
      }
    }
  });

  it("offers the loaded rows' values, most common first, for a field the schema leaves open", async () => {
    const tasks = await everyRecord('tasks');
    const suggested = valueSuggestions({ resource: 'tasks', version: 'v1', field: 'category' }, tasks);
    expect(suggested.source).toBe('rows');
    const counts = new Map<unknown, number>();
    for (const task of tasks) counts.set(task['category'], (counts.get(task['category']) ?? 0) + 1);
    expect(new Set(suggested.values)).toEqual(new Set(counts.keys()));
    const inOrder = suggested.values.map((value) => counts.get(value)!);
    expect(inOrder).toEqual([...inOrder].sort((a, b) => b - a));
  });

  it('reads nested fields by their dotted path and caps the list', async () => {
    const tasks = await everyRecord('tasks');
    const emails = valueSuggestions({ resource: 'tasks', version: 'v1', field: 'initiated_by.email' }, tasks, 5);
    expect(emails.source).toBe('rows');
    expect(emails.values).toHaveLength(5);
    for (const email of emails.values)
      expect(tasks.some((task) => valueAt(task, 'initiated_by.email') === email)).toBe(true);
  });

  it('offers nothing from the schema for a version or resource it does not know', async () => {
    const alerts = await everyRecord('alerts');
    expect(valueSuggestions({ resource: 'alerts', version: 'v9', field: 'status' }, alerts).source).toBe('rows');
    expect(valueSuggestions({ resource: 'nothing', version: 'v1', field: 'status' })).toEqual({
      source: 'rows',
      values: [],
    });
    expect(valueSuggestions({ resource: 'alerts', version: 'v1', field: 'constructor' }).source).toBe('rows');
  });
});
