// The operation form on a small control plane of its own: variables, the OU, a body checked as JSON and
// against its schema while typed, the read-only warning, $EDITOR, and `p` opening the exact request.
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperationForm, type OperationFormState } from '../../../src/api/operations/form.js';
import { compileBodyCheck } from '../../../src/api/hal/schema-compiler.js';
import { Session } from '../../../src/api/session/session.js';
import { editInEditor } from '../../../src/ui/editor.js';
import type { FormState } from '../../../src/ui/screens/operations/form.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { BACKSPACE, DOWN, ENTER, ESC, openScreen, topKind, type ScreenOptions } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const INDEX = {
  widgets: {
    supported_versions: ['v1'],
    v1: { patch_widget: { href: '/api/widgets/{widget_id}{?dry_run}', type: 'patch', templated: true } },
  },
};
const schema = {
  type: 'object',
  required: ['size'],
  additionalProperties: false,
  properties: { size: { type: 'integer', example: 3 } },
};
const bodySchema = { schema, source: 'built-in', check: compileBodyCheck(schema) };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) =>
    sendJson(response, request.url === '/api/' ? 200 : 404, request.url === '/api/' ? INDEX : { errors: [] }),
  );
});
afterAll(() => server.close());

async function openForm(
  prefill: Record<string, string>,
  options: { readOnly?: boolean; withSchema?: boolean; body?: string } & ScreenOptions = {},
) {
  const session = new Session({ baseUrl: `${server.baseUrl}/api`, readOnly: options.readOnly ?? false });
  const operation = (await session.catalog()).resources[0]!.versions[0]!.operations[0]!;
  const form: OperationFormState = createOperationForm({
    resource: 'widgets',
    version: 'v1',
    operation,
    prefill,
    ou: 'ou-9',
    ...(options.withSchema === false ? {} : { bodySchema: schema }),
  });
  if (options.body !== undefined) form.body = options.body;
  return openScreen(
    'operation-form',
    (origin, navigator) => ({
      flow: { origin, start: navigator.top()!.id },
      form,
      ...(options.withSchema === false ? {} : { schema: bodySchema }),
    }),
    { session, ...options },
  );
}

describe('the operation form', () => {
  it('shows prefilled variables, the OU, the body template and the live URL; p opens the exact request', async () => {
    const ui = await openForm({ widget_id: 'w-1' });
    const frame = await ui.waitFor((f) => f.includes('URL'), 'the form');
    expect(frame).toContain('PATCH widgets v1 · patch_widget');
    expect(frame).toContain(`URL ${server.baseUrl}/api/widgets/w-1`);
    expect(frame).toMatch(/path\s+widget_id\* = w-1\s+\(from the record\)/);
    expect(frame).toContain('OU = ou-9');
    expect(frame).toContain('"size": 3');
    await ui.press('p');
    const preview = await ui.waitFor((f) => f.includes('Request preview'), 'the preview');
    expect(preview).toContain(`PATCH ${server.baseUrl}/api/widgets/w-1`);
    expect(preview).toContain('x-service-organizationalunit-context: ou-9');
    expect(preview).toMatch(/"size": 3/);
    await ui.unmount();
  });

  it('edits a variable by typing; the URL follows; a missing path variable blocks the preview', async () => {
    const ui = await openForm({}, { withSchema: false });
    await ui.waitFor((f) => f.includes(`URL ${server.baseUrl}/api/widgets/{widget_id}`), 'the form');
    await ui.press('p');
    await ui.waitFor(
      (f) => f.includes('fix the problem below first') && f.includes('widget_id: is required'),
      'the problem',
    );
    expect(topKind(ui)).toBe('operation-form');
    await ui.press(ENTER, 'a b', BACKSPACE, 'c', ENTER);
    await ui.waitFor((f) => f.includes(`URL ${server.baseUrl}/api/widgets/a%20c`), 'the typed id');
    await ui.press(DOWN, ENTER, 'yes', ESC);
    await ui.waitFor((f) => f.includes(`URL ${server.baseUrl}/api/widgets/a%20c?dry_run=yes`), 'the query variable');
    const state = ui.navigator.top()!.state as FormState;
    expect(state.form.fields.map((field) => field.value)).toEqual(['a c', 'yes']);
    await ui.press('p');
    await ui.waitFor(
      (f) => f.includes('Request preview') && f.includes('/api/widgets/a%20c?dry_run=yes'),
      'the preview',
    );
    await ui.unmount();
  });

  it('checks the body as JSON and against the schema while typing, with where', async () => {
    const ui = await openForm({ widget_id: 'w' }, { body: '' });
    await ui.press('b', '{', ENTER, '"size": "big",');
    await ui.waitFor((f) => f.includes('✗ body: not JSON') && f.includes('line 2, column 15'), 'the syntax error');
    await ui.press(BACKSPACE, ENTER, '}', ESC);
    await ui.waitFor((f) => f.includes('✗ /size: must be integer'), 'the schema error');
    // One schema policy: every problem shown, and the body previewed anyway only after a second p.
    await ui.press('p');
    await ui.waitFor((f) => f.includes('p again previews it to send anyway'), 'the first p refused');
    expect(topKind(ui)).toBe('operation-form');
    await ui.press('p');
    const preview = await ui.waitFor((f) => f.includes('Request preview'), 'the preview after the second p');
    expect(preview).toContain('the body has a problem with the schema; it goes as it is, for the server to judge');
    await ui.unmount();
  });

  it('says before anything is tried that a write will not be sent in read-only mode', async () => {
    const ui = await openForm({ widget_id: 'w' }, { readOnly: true });
    const frame = await ui.waitFor((f) => f.includes('read-only mode'), 'the warning');
    expect(frame).toContain('PATCH changes data and was not sent');
    expect(frame).toContain('--allow-writes');
    await ui.unmount();
  });

  describe('$EDITOR', () => {
    let dir: string;
    beforeAll(async () => {
      dir = temporaryFolder('dpx-editor-');
      // An "editor" that rewrites the file it is given, as a person would.
      await writeFile(join(dir, 'editor.sh'), '#!/bin/sh\nprintf \'{"size": 42}\' > "$1"\n');
      await chmod(join(dir, 'editor.sh'), 0o755);
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('e opens the body in the editor with the terminal handed over, and takes the result', async () => {
      const events: string[] = [];
      const env = { ...process.env, VISUAL: join(dir, 'editor.sh') };
      const edit = async (text: string): Promise<string> => {
        events.push('suspend');
        try {
          return await editInEditor(text, env);
        } finally {
          events.push('resume');
        }
      };
      const ui = await openForm({ widget_id: 'w' }, { terminal: { copy: () => undefined, edit } });
      await ui.press('e');
      const frame = await ui.waitFor((f) => f.includes('body edited in $EDITOR'), 'the edited body');
      expect(frame).toContain('{"size": 42}');
      expect(events).toEqual(['suspend', 'resume']);
      await ui.unmount();
    });
  });
});
