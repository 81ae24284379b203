import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBodyText, formatBodyProblem, loadBodySchema, type BodySchema } from '../../../src/api/operations/body.js';
import { parseBodyText } from '../../../src/api/operations/jsonc.js';
import { bodyTemplate } from '../../../src/api/operations/template.js';
import { compileBodyCheck } from '../../../src/api/hal/schema-compiler.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const schema = {
  type: 'object',
  required: ['name', 'retention_days', 'target'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, example: 'nightly' },
    retention_days: { type: 'integer', minimum: 1 },
    target: { $ref: '#/definitions/target' },
    note: { type: 'string' },
  },
  definitions: {
    target: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['disk', 'tape'] }, path: { type: 'string' } },
    },
  },
};
const checked: BodySchema = { schema, source: 'test', check: compileBodyCheck(schema) };

describe('body checks', () => {
  it('builds a template whose value is the required properties only, from examples, enums and types', () => {
    expect(parseBodyText(bodyTemplate(schema))).toEqual({
      ok: true,
      value: { name: 'nightly', retention_days: 1, target: { kind: 'disk' } },
    });
  });

  it('the template passes its own schema', () => {
    expect(checkBodyText(bodyTemplate(schema), checked)).toEqual([]);
  });

  it('reports a JSON syntax error with line and column', () => {
    const [problem] = checkBodyText('{\n  "name": "x",\n  retention_days: 3\n}', checked);
    expect(problem).toMatchObject({ pointer: '', line: 3, column: 3 });
    expect(formatBodyProblem(problem!)).toMatch(/^body: not JSON: line 3, column 3: /);
  });

  it('reports schema violations with JSON pointers', () => {
    const problems = checkBodyText(
      JSON.stringify({ name: 'x', retention_days: 'seven', target: { kind: 'cloud' }, extra: 1 }),
      checked,
    );
    const text = problems.map(formatBodyProblem);
    expect(text).toContainEqual(expect.stringMatching(/^\/retention_days: must be integer/));
    expect(text).toContainEqual('/target/kind: must be one of: disk, tape');
    expect(text).toContainEqual(expect.stringMatching(/additional properties.*extra/));
  });

  it('names a missing required property', () => {
    const text = checkBodyText('{}', checked).map(formatBodyProblem).join('\n');
    expect(text).toContain("'name'");
  });

  it('an empty body has no problems to report here (the form decides whether one is needed)', () => {
    expect(checkBodyText('  ', checked)).toEqual([]);
  });
});

describe('loadBodySchema', () => {
  let dir: string;
  beforeAll(async () => {
    dir = temporaryFolder('dpx-schemas-');
    await writeFile(join(dir, 'widgets.v3.make_widget.json'), JSON.stringify({ type: 'object', required: ['size'] }));
    await writeFile(join(dir, 'widgets.v3.broken.json'), '{ "type": ');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prefers the profile schema folder', async () => {
    const found = await loadBodySchema({ resource: 'widgets', version: 'v3', operationId: 'make_widget' }, dir);
    expect(found?.source).toBe(join(dir, 'widgets.v3.make_widget.json'));
    expect(checkBodyText('{}', found!).map(formatBodyProblem).join('\n')).toContain("'size'");
  });

  it('names a malformed schema file', async () => {
    await expect(loadBodySchema({ resource: 'widgets', version: 'v3', operationId: 'broken' }, dir)).rejects.toThrow(
      /widgets\.v3\.broken\.json/,
    );
  });

  it('falls back to the shipped schemas, and to nothing', async () => {
    const shipped = await loadBodySchema({ resource: 'restores', version: 'v1', operationId: 'create_restore' }, dir);
    expect(shipped?.source).toBe('built-in');
    expect(await loadBodySchema({ resource: 'widgets', version: 'v3', operationId: 'unknown' }, dir)).toBeUndefined();
  });
});
