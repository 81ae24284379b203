import { compileBodyCheck } from '../../../src/api/schema-compiler.js';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/api/catalog.js';
import { editInEditor } from '../../../src/api/operations/editor.js';
import { createOperationForm, type OperationFormState } from '../../../src/api/operations/form.js';
import { OperationForm } from '../../../src/ui/operations/operation-form.js';
import { BACKSPACE, DOWN, ENTER, ESC, mount, press, unmount, until } from './harness.js';

const catalog = parseCatalog(
  {
    widgets: {
      supported_versions: ['v1'],
      v1: {
        patch_widget: { href: '/widgets/{widget_id}{?dry_run}', type: 'patch', templated: true },
      },
    },
  },
  'service',
);
const operation = catalog.resources[0]!.versions[0]!.operations[0]!;
const schema = { type: 'object', required: ['size'], additionalProperties: false, properties: { size: { type: 'integer', example: 3 } } };

function form(prefill: Record<string, string> = {}): OperationFormState {
  return createOperationForm({ resource: 'widgets', version: 'v1', operation, prefill, ou: 'ou-9', bodySchema: schema });
}

describe('OperationForm', () => {
  it('shows prefilled variables, the OU, the body template and the live URL; p submits', async () => {
    const submitted: OperationFormState[] = [];
    const ui = await mount(<OperationForm initial={form({ widget_id: 'w-1' })} baseUrl="http://h:1/api" bodySchema={{ schema, source: 'built-in', check: compileBodyCheck(schema) }} readOnly={false} onSubmit={(f) => submitted.push(f)} onCancel={() => undefined} />);
    const frame = await until(ui, (f) => f.includes('URL'));
    expect(frame).toContain('PATCH widgets v1 · patch_widget');
    expect(frame).toContain('URL http://h:1/api/widgets/w-1');
    expect(frame).toMatch(/path\s+widget_id\* = w-1\s+\(from the record\)/);
    expect(frame).toContain('OU = ou-9');
    expect(frame).toContain('"size": 3');
    await press(ui, 'p');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]!.body).toBe('{\n  "size": 3\n}');
    await unmount(ui);
  });

  it('edits a variable by typing; the URL follows; a missing path variable blocks submission', async () => {
    const submitted: OperationFormState[] = [];
    const ui = await mount(<OperationForm initial={form()} baseUrl="http://h:1" readOnly={false} onSubmit={(f) => submitted.push(f)} onCancel={() => undefined} />);
    await until(ui, (f) => f.includes('URL http://h:1/widgets/{widget_id}'));
    await press(ui, 'p');
    await until(ui, (f) => f.includes('fix the problem below first') && f.includes('widget_id: is required'));
    expect(submitted).toEqual([]);
    await press(ui, ENTER, 'a b', BACKSPACE, 'c', ENTER);
    await until(ui, (f) => f.includes('URL http://h:1/widgets/a%20c'));
    await press(ui, DOWN, ENTER, 'yes', ESC);
    await until(ui, (f) => f.includes('URL http://h:1/widgets/a%20c?dry_run=yes'));
    await press(ui, 'p');
    expect(submitted.map((f) => f.fields.map((field) => field.value))).toEqual([['a c', 'yes']]);
    await unmount(ui);
  });

  it('checks the body as JSON and against the schema while typing, with where', async () => {
    const ui = await mount(<OperationForm initial={{ ...form({ widget_id: 'w' }), body: '' }} baseUrl="http://h:1" bodySchema={{ schema, source: 'built-in', check: compileBodyCheck(schema) }} readOnly={false} onSubmit={() => undefined} onCancel={() => undefined} />);
    await press(ui, DOWN, DOWN, DOWN, ENTER, '{', ENTER, '"size": "big",');
    await until(ui, (f) => f.includes('✗ body: not JSON') && f.includes('line 2, column 15'));
    await press(ui, BACKSPACE, ENTER, '}', ESC);
    await until(ui, (f) => f.includes('✗ /size: must be integer'));
    await unmount(ui);
  });

  it('says before anything is tried that a write will not be sent in read-only mode', async () => {
    const ui = await mount(<OperationForm initial={form({ widget_id: 'w' })} baseUrl="http://h:1" readOnly onSubmit={() => undefined} onCancel={() => undefined} />);
    const frame = await until(ui, (f) => f.includes('read-only mode'));
    expect(frame).toContain('PATCH changes data and was not sent');
    expect(frame).toContain('--allow-writes');
    await unmount(ui);
  });

  describe('$EDITOR', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'dpx-editor-'));
      // An "editor" that rewrites the file it is given, as a person would.
      await writeFile(join(dir, 'editor.sh'), '#!/bin/sh\nprintf \'{"size": 42}\' > "$1"\n');
      await chmod(join(dir, 'editor.sh'), 0o755);
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('e opens the body in the editor with the terminal handed over, and takes the result', async () => {
      const events: string[] = [];
      const env = { ...process.env, VISUAL: join(dir, 'editor.sh') };
      const editBody = async (text: string): Promise<string> => {
        events.push('suspend');
        try {
          return await editInEditor(text, env);
        } finally {
          events.push('resume');
        }
      };
      const ui = await mount(<OperationForm initial={form({ widget_id: 'w' })} baseUrl="http://h:1" bodySchema={{ schema, source: 'built-in', check: compileBodyCheck(schema) }} readOnly={false} editBody={editBody} onSubmit={() => undefined} onCancel={() => undefined} />);
      await press(ui, 'e');
      const frame = await until(ui, (f) => f.includes('body edited in $EDITOR'));
      expect(frame).toContain('{"size": 42}');
      expect(events).toEqual(['suspend', 'resume']);
      await unmount(ui);
    });
  });
});
