// Forms fit 80×24 (issue 38): with the focus on the body, the editor keeps at least 5 lines of text, and
// the rest of the form scrolls around it; the form uses the lines it has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBodyCheck } from '../../../src/api/hal/schema-compiler.js';
import { createOperationForm } from '../../../src/api/operations/form.js';
import { Session } from '../../../src/api/session/session.js';
import { formLayout } from '../../../src/ui/screens/operations/form-layout.js';
import { rowsOf } from '../../../src/ui/screens/operations/form-rows.js';
import type { FormState } from '../../../src/ui/screens/operations/form.js';
import { bodyHeight as screenBodyHeight } from '../../../src/ui/layout.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';

const INDEX = {
  gadgets: {
    supported_versions: ['v1'],
    v1: { create_gadget: { href: '/api/gadgets', type: 'post', templated: false } },
  },
};
const properties = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [
    `field_${i}`,
    { type: 'string', description: `Field ${i}, described at some length` },
  ]),
);
const schema = { type: 'object', required: ['field_0'], additionalProperties: false, properties };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) =>
    sendJson(response, request.url === '/api/' ? 200 : 404, request.url === '/api/' ? INDEX : { errors: [] }),
  );
});
afterAll(() => server.close());

describe('the body editor at 80×24', () => {
  it.each([false, true])('keeps at least 5 lines of text when it has the focus (read-only: %s)', async (readOnly) => {
    const session = new Session({ baseUrl: `${server.baseUrl}/api`, readOnly });
    const operation = (await session.catalog()).resources[0]!.versions[0]!.operations[0]!;
    const form = createOperationForm({ resource: 'gadgets', version: 'v1', operation, bodySchema: schema });
    const rows = rowsOf(form);
    const state = {
      flow: { origin: { connection: { session } }, start: 0 },
      form,
      schema: { schema, source: 'built-in', check: compileBodyCheck(schema) },
      focus: rows.findIndex((row) => row.kind === 'body'),
      editorBusy: false,
      editing: { text: form.body, cursor: 0 },
      message: 'a message of the last key, long enough to take two lines of the form at eighty columns wide, or so',
    } as unknown as FormState;
    const height = screenBodyHeight(24, undefined);
    const layout = formLayout(state, 80, height);
    expect(form.body.split('\n').length).toBeGreaterThan(5);
    expect(layout.body.lines).toBeGreaterThanOrEqual(5);
    const used = layout.items.slice(layout.window.top, layout.window.end).reduce((sum, item) => sum + item.height, 0);
    expect(used).toBeLessThanOrEqual(height);
  });
});
