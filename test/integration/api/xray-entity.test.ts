// The x-ray on a control plane shaped like a real one (test/helpers/entity-plane.ts): tasks and alerts name
// the record they are about in `primary_entity: {id, type, value}`, a field the schemas dpx ships for them
// lack, and their lists refuse a filter on `primary_entity.type`. The x-ray of a volume finds the tasks
// and the alerts that name it all the same.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { runXray } from '../../../src/api/xray/xray.js';
import { ALERTS_OF_VOLUME, entityPlane, TASKS_OF_VOLUME, VOLUME } from '../../helpers/entity-plane.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('x-ray on a control plane whose records name what they are about in primary_entity', () => {
  it('finds the tasks and the alerts that name a volume, asking by its id alone and checking the type', async () => {
    server = await startServer(entityPlane());
    const session = new Session({ baseUrl: server.baseUrl, token: 'opaque', maxRetries: 0 });
    const result = await runXray(session, { resource: 'volumes', id: VOLUME });
    const found = (resource: string) =>
      result.inbound
        .filter((group) => group.candidate.resource === resource)
        .flatMap((group) => group.keys)
        .map((key) => result.nodes.find((node) => node.key === key)?.record?.['id'])
        .sort();
    expect(found('tasks')).toEqual(TASKS_OF_VOLUME);
    expect(found('alerts')).toEqual(ALERTS_OF_VOLUME);
    const tasks = result.inbound.find((group) => group.candidate.resource === 'tasks');
    expect(tasks).toMatchObject({ total: 4 });
    expect(tasks?.unsearchable).toBeUndefined();
    expect(result.notes.filter((note) => note.kind === 'unsearchable' && !note.text.includes('`events`'))).toEqual([]);
    // What the lists taught is kept for the session: a second x-ray asks the id alone, never the type again.
    const before = server.requests.length;
    const again = await runXray(session, { resource: 'volumes', id: VOLUME });
    expect(again.inbound.find((group) => group.candidate.resource === 'tasks')?.keys).toHaveLength(4);
    const filters = server.requests
      .slice(before)
      .map((request) => new URL(request.url, server!.baseUrl).searchParams.get('filter') ?? '');
    expect(filters.filter((filter) => filter.includes('primary_entity.type'))).toEqual([]);
  });

  it('names a list not searchable only when every form was refused, with the forms it tried', async () => {
    server = await startServer(entityPlane());
    const session = new Session({ baseUrl: server.baseUrl, token: 'opaque', maxRetries: 0 });
    const result = await runXray(session, { resource: 'volumes', id: VOLUME });
    const unsearchable = result.notes.filter((note) => note.kind === 'unsearchable').map((note) => note.text);
    expect(unsearchable).toHaveLength(1);
    expect(unsearchable[0]).toMatch(
      /^not searchable: `events` refused a filter on `primary_entity\.type\/primary_entity\.id`/,
    );
    expect(unsearchable[0]).toMatch(
      /tried: primary_entity\.type\+primary_entity\.id \(operator, bare\), primary_entity\.id \(operator, bare\)/,
    );
  });
});
