// The body offered for editing (one builder for the CLI's --edit and --help and the explorer's form): JSON
// with comments naming every field of the schema, nested ones too; what an untouched one sends; and the
// edits the form makes in it, comments kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isBlankBody,
  parseBodyText,
  removeBodyField,
  sendableBody,
  setBodyField,
} from '../../../src/api/operations/jsonc.js';
import { bodyTemplate, exampleBody, TEMPLATE_HINT } from '../../../src/api/operations/template.js';

const bodies = join(import.meta.dirname, '../../../fixtures/schemas/bodies');
const shipped = (name: string) =>
  JSON.parse(readFileSync(join(bodies, `${name}.json`), 'utf8')) as {
    required?: string[];
    properties: Record<string, unknown>;
  };

function value(text: string): unknown {
  const parsed = parseBodyText(text);
  if (!parsed.ok) throw new Error(`${parsed.message}\n${text}`);
  return parsed.value;
}

const nested = {
  type: 'object',
  required: ['name', 'target', 'rules'],
  properties: {
    name: { type: 'string', examples: ['nightly'] },
    target: { $ref: '#/definitions/target' },
    spare: { $ref: '#/definitions/target' },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['match'],
        properties: { match: { type: 'string' }, weight: { type: 'integer', minimum: 1 } },
      },
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
  definitions: {
    target: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['disk', 'tape'] }, path: { type: 'string', description: 'where,\non two lines' } },
    },
  },
};

describe('the body template', () => {
  it('names every field of each shipped schema: the required ones set, each optional one a commented-out line', () => {
    for (const file of [
      'restores.v1.create_restore',
      'policies.v1.create_policy',
      'users.v2.create_user',
      'users.v2.update_user',
      'protection-groups.v1.create_protection_group',
    ]) {
      const schema = shipped(file);
      const text = bodyTemplate(schema);
      const required = schema.required ?? [];
      for (const name of Object.keys(schema.properties)) {
        expect(text, `${file}: ${name}`).toMatch(
          new RegExp(
            `^ {2}${required.includes(name) ? '' : '// '}"${name}": .*,  // ${required.includes(name) ? 'required · ' : ''}`,
            'm',
          ),
        );
      }
      // Untouched, it sends the required fields only: nothing optional, and no null for what was not filled in.
      expect(Object.keys(value(text) as object), file).toEqual(required);
    }
  });

  it('says what each field takes: type, limits, allowed values, default and description', () => {
    const text = bodyTemplate(shipped('restores.v1.create_restore'));
    expect(text.split('\n')).toEqual([
      TEMPLATE_HINT,
      '{',
      '  "backup_id": "",  // required · string, a UUID — The backup to restore from',
      '  // "restore_type": "full",  // string · one of full | file_level | database | mailbox_item · ' +
        'default "full" — What to restore: the whole object, single files, a database or a mailbox item',
      '  // "target": "",  // string, 1–300 characters — Where to restore to; defaults to the original object with the suffix -restored',
      '}',
    ]);
  });

  it('names the fields of nested objects at their depth, and of the elements of an array of objects', () => {
    const text = bodyTemplate(nested);
    expect(text).toContain(
      [
        '  "target": {  // required · object',
        '    "kind": "disk",  // required · one of disk | tape',
        '    // "path": "",  // string — where, on two lines',
        '  },',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '  "rules": [  // required · array of object',
        '    // {',
        '    //   "match": "",  // required · string',
        '    //   // "weight": 1,  // integer, at least 1',
        '    // },',
        '  ],',
      ].join('\n'),
    );
    expect(text).toContain('  // "spare": {  // object\n  //   "kind": "disk",');
    expect(text).toContain('  // "tags": [],  // array of string');
    expect(value(text)).toEqual({ name: 'nightly', target: { kind: 'disk' }, rules: [] });
    // Uncommenting a nested block gives its required fields, its optional ones still commented out.
    const spare = text.replace(/^ {2}\/\/ (.*)$/gm, (line, rest: string) => (/"tags"/.test(rest) ? line : `  ${rest}`));
    expect((value(spare) as Record<string, unknown>)['spare']).toEqual({ kind: 'disk' });
  });

  it("a record's values start present, and what the record lacks stays commented out", () => {
    const text = bodyTemplate(shipped('users.v2.update_user'), { values: { full_name: 'Ada', is_enabled: true } });
    expect(value(text)).toEqual({ full_name: 'Ada', is_enabled: true });
    expect(text).toMatch(/^ {2}"full_name": "Ada", {2}\/\/ string, 1–200 characters — The person's name as shown$/m);
    expect(text).toMatch(/^ {2}\/\/ "role_id": "", {2}\/\/ string, a UUID/m);
  });

  it('gives the example command the required fields, with a placeholder for what the user must find', () => {
    expect(exampleBody(shipped('restores.v1.create_restore'))).toEqual({ backup_id: '<backup_id>' });
    expect(exampleBody(shipped('users.v2.update_user'))).toEqual({ full_name: 'Ada Lovelace' });
  });

  it('makes a description from a schema folder inert: no control character or line break in a comment', () => {
    const text = bodyTemplate({
      type: 'object',
      properties: { a: { type: 'string', description: 'x\x1b[31m\ny\u202e' } },
    });
    expect(text).toContain('// "a": "",  // string — x [31m y');
    expect(text).not.toMatch(/[\x1b\u202e]/);
  });
});

describe('a body with comments', () => {
  it('is sent as plain JSON; plain JSON goes as typed; comments only are no body', () => {
    expect(sendableBody('{\n  "a": 1,  // one\n  // "b": 2,\n}')).toBe('{\n  "a": 1\n}');
    expect(sendableBody('{"a": 1}')).toBe('{"a": 1}');
    expect(isBlankBody('  // nothing\n/* at all */\n')).toBe(true);
    expect(isBlankBody('// x\n{}')).toBe(false);
  });

  it('names where it stops being JSON, by line and column', () => {
    expect(parseBodyText('{\n  // fine\n  "a": 1\n  "b": 2\n}')).toMatchObject({
      ok: false,
      line: 4,
      column: 3,
      message: expect.stringMatching(/expected "," between two values/),
    });
    expect(parseBodyText('{"a": "x\ty"}')).toMatchObject({
      ok: false,
      line: 1,
      column: 7,
      message: expect.stringMatching(/control character/),
    });
    expect(parseBodyText('{"a": 1} /* open')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/comment that does not end/),
    });
  });

  it('keeps a __proto__ key as a field, as JSON.parse does', () => {
    const parsed = parseBodyText('{"__proto__": {"x": 1}, // c\n}');
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(['__proto__']);
  });
});

describe("the form's edits in the text", () => {
  const text = bodyTemplate(shipped('restores.v1.create_restore'));

  it('setting a commented-out field uncomments its line, comment kept', () => {
    const set = setBodyField(text, 'restore_type', 'database')!;
    expect(set).toContain('  "restore_type": "database",  // string · one of full');
    expect(set).not.toContain('// "restore_type"');
    expect(value(set)).toEqual({ backup_id: '', restore_type: 'database' });
  });

  it('taking a field out comments its line out, to put back as it was', () => {
    const out = removeBodyField(setBodyField(text, 'target', 'elsewhere')!, 'target')!;
    expect(out).toContain('  // "target": "elsewhere",  // string, 1–300 characters');
    expect(value(out)).toEqual({ backup_id: '' });
    expect(setBodyField(out, 'target', 'there')).toContain('  "target": "there",  // string');
  });

  it('a field with no line of its own gets one; a body on one line is edited in place', () => {
    expect(setBodyField('{\n  "a": 1\n}', 'b', [2])).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ],\n}');
    expect(value(setBodyField('{"a":1}', 'b', 2)!)).toEqual({ a: 1, b: 2 });
    expect(value(removeBodyField('{"a":1,"b":2}', 'a')!)).toEqual({ b: 2 });
    expect(setBodyField('', 'a', 1)).toBe('{\n  "a": 1,\n}');
    expect(setBodyField('[1]', 'a', 1)).toBeUndefined();
  });

  it("a nested field of the same name is not the top level's", () => {
    const body = bodyTemplate(nested);
    const set = setBodyField(body, 'path', 'x')!;
    expect(set).toContain('    // "path": "",');
    expect(value(set)).toMatchObject({ path: 'x', target: { kind: 'disk' } });
  });
});
