// Trying an operation from the command line, over HTTP against the demo: what it needs (--help), the
// body offered for editing (every field of the schema named, the optional ones commented out), the
// exact request before a write, a typed DELETE, header values checked before sending, the body from
// stdin, a positional id, -i, and --wait following a task to 0 or 6, printing it as -o and --fields ask.
import { Interruption } from '../../../src/cli/exit-codes.js';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { curlBody, recordingEditor } from '../../helpers/editor.js';
import { dpx, tokensShown } from './harness.js';
import { listIds } from './ids.js';
import { interruptedRestore } from './interrupt.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo({ taskSpeed: 60 });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const writes = ['--allow-writes', '--yes'];
let backupIds: string[] = [];

beforeAll(async () => {
  backupIds = await listIds('backups', 20, env());
  expect(backupIds.length).toBeGreaterThan(5);
});

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

const restoreBody = (index = 0) => JSON.stringify({ backup_id: backupIds[index] });

async function someUserId(): Promise<string> {
  return (await listIds('users', 1, env()))[0]!;
}

describe('what an operation needs', () => {
  it('dpx call R OP --help lists every body field, the optional ones with their allowed values and descriptions', async () => {
    const { code, stdout } = await dpx(['call', 'restores', 'create_restore', '--help'], { env: env() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^POST \/restores$/m);
    expect(stdout).toMatch(/^ {2}backup_id\s+required, string, a UUID$/m);
    expect(stdout).toMatch(/^ {2}restore_type\s+optional, string$/m);
    expect(stdout).toMatch(/one of: full, file_level, database, mailbox_item/);
    expect(stdout).toMatch(/^ {2}target\s+optional, string, 1–300 characters$/m);
    expect(stdout).toContain('Where to restore to');
    expect(stdout).toContain('the id of a backups record (dpx list backups)');
    expect(stdout).toContain(`dpx call restores create_restore --body '{"backup_id":"<backup_id>"}' --allow-writes`);
  });

  it('dpx operations R OP says the same, and a list names its filter operators and fields', async () => {
    const help = await dpx(['call', 'restores', 'create_restore', '--help'], { env: env() });
    const described = await dpx(['operations', 'restores', 'create_restore'], { env: env() });
    expect(described.stdout).toBe(help.stdout);
    const list = await dpx(['operations', 'tasks', 'list_tasks'], { env: env() });
    expect(list.stdout).toMatch(/filter\s+query, optional: a JSON filter/);
    expect(list.stdout).toContain('operators: $eq $neq $in $contains $begins_with $gt $gte $lt $lte');
    expect(list.stdout).toContain('initiated_by.type: user | schedule | system');
    expect(list.stdout).toContain('Body: none (GET sends no body)');
  });

  it('an operation the index has but dpx knows no schema for says so', async () => {
    const { stdout } = await dpx(['operations', 'tasks', 'abort_task'], { env: env() });
    expect(stdout).toMatch(/no schema is known for it|Body: none/);
    expect(stdout).toContain('dpx call tasks abort_task <task_id>');
  });
});

/** The properties of a body schema dpx ships, read from the file itself. */
function shippedProperties(name: string): { required: string[]; optional: string[] } {
  const schema = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../fixtures/schemas/bodies', `${name}.json`), 'utf8'),
  ) as { required: string[]; properties: Record<string, unknown> };
  const all = Object.keys(schema.properties);
  return { required: schema.required, optional: all.filter((property) => !schema.required.includes(property)) };
}

describe('the body offered for editing', () => {
  const restore = shippedProperties('restores.v1.create_restore');

  it('--help offers a body that names every field of the schema, each optional one commented out with its type and description', async () => {
    expect(restore.optional.length).toBeGreaterThan(0);
    const { stdout } = await dpx(['call', 'restores', 'create_restore', '--help'], { env: env() });
    const offered = stdout.slice(stdout.indexOf('Body to start from'), stdout.indexOf('Example:'));
    expect(offered).toContain('--edit opens it in $EDITOR');
    for (const name of restore.required) expect(offered).toMatch(new RegExp(`^ {4}"${name}": .*// required · `, 'm'));
    for (const name of restore.optional) expect(offered).toMatch(new RegExp(`^ {4}// "${name}": `, 'm'));
    expect(offered).toMatch(
      /\/\/ "restore_type": "full", {2}\/\/ string · one of full \| file_level \| database \| mailbox_item · default "full" — What to restore/,
    );
  });

  it('--edit offers the same body in $EDITOR; saved untouched, it sends the required fields only', async () => {
    const editor = recordingEditor(env);
    const { code, stdout, stderr } = await dpx(['call', 'restores', 'create_restore', '--edit', '--dry-run'], {
      env: editor.env(),
    });
    expect(code, stderr).toBe(0);
    const offered = editor.seen();
    for (const name of [...restore.required, ...restore.optional]) expect(offered).toContain(`"${name}": `);
    for (const name of restore.optional) expect(offered).toMatch(new RegExp(`^ {2}// "${name}": `, 'm'));
    // What stays commented out is not sent, and no optional field goes as a null.
    expect(Object.keys(curlBody(stdout) as object)).toEqual(restore.required);
    expect(/--data-raw '([^']*)'/.exec(stdout)![1]).not.toContain('//');
  });

  it('an uncommented field is sent with the required ones, as plain JSON', async () => {
    const editor = recordingEditor(env);
    const fill = `s#"backup_id": ""#"backup_id": "${backupIds[5]}"#; s#// "restore_type": "full"#"restore_type": "database"#`;
    const dry = await dpx(['call', 'restores', 'create_restore', '--edit', '--dry-run'], { env: editor.env(fill) });
    expect(curlBody(dry.stdout)).toEqual({ backup_id: backupIds[5], restore_type: 'database' });
    const sent = await dpx(['call', 'restores', 'create_restore', '--edit', ...writes], { env: editor.env(fill) });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/^202 Accepted/m);
  });

  it('--body takes comments and trailing commas, and sends plain JSON', async () => {
    const body = `{\n  "backup_id": "${backupIds[0]}",  // the backup\n  // "target": "x",\n  /* a note */ "restore_type": "full",\n}`;
    const { code, stdout } = await dpx(['call', 'restores', 'create_restore', '--body', body, '--dry-run'], {
      env: env(),
    });
    expect(code).toBe(0);
    expect(curlBody(stdout)).toEqual({ backup_id: backupIds[0], restore_type: 'full' });
  });

  it('an edit that is not JSON is refused with its line and column, and kept in a file to fix', async () => {
    const editor = recordingEditor(env);
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'restores', 'create_restore', '--edit', ...writes], {
      env: editor.env('s#"backup_id": ""#backup_id: 1#'),
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: the edited body is not valid JSON: line 4, column 3: unexpected "b"/m);
    const kept = /it is kept in (\S+): fix it there/.exec(stderr)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    expect(readFileSync(kept!, 'utf8')).toContain('backup_id: 1,');
    // The discovery index alone: nothing was sent.
    expect(demo.region.requestCount() - before).toBe(1);
  });
});

describe('the request before it leaves', () => {
  it('an enum error lists the allowed values, and nothing is sent without a second yes', async () => {
    const before = demo.region.requestCount();
    const body = JSON.stringify({ backup_id: backupIds[0], restore_type: 'everything' });
    const refused = await dpx(['call', 'restores', 'create_restore', '--body', body, ...writes], { env: env() });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('/restore_type: must be one of: full, file_level, database, mailbox_item');
    expect(refused.stderr).toMatch(/^hint: .*--send-invalid/m);
    expect(demo.region.requestCount() - before).toBe(1);

    const sent = await dpx(['call', 'restores', 'create_restore', '--body', body, ...writes, '--send-invalid'], {
      env: env(),
    });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toMatch(/must be one of: full, file_level, database, mailbox_item/);
    expect(sent.stderr).toMatch(
      /^hint: the body does not fit the operation: `dpx call restores create_restore --help`/m,
    );
  });

  it('on a terminal, shows the method, URL, headers with the token masked, the body indented and the unit by name', async () => {
    const acme = demo.region.units.find((unit) => unit.name === 'Acme Corp')!;
    const declined = await dpx(
      ['call', 'restores', 'create_restore', '--body', restoreBody(), '--allow-writes', '--ou', acme.id],
      { env: env(), stderrTTY: true, typed: 'n\n' },
    );
    expect(declined.code).toBe(4);
    expect(declined.stderr).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(declined.stderr).toContain('authorization: Bearer ***');
    expect(declined.stderr).toContain('content-type: application/json');
    expect(declined.stderr).toContain(`x-service-organizationalunit-context: ${acme.id}`);
    expect(declined.stderr).toContain(`organizational unit: Acme Corp (${acme.id})`);
    expect(declined.stderr).toMatch(/body \(\d+ bytes, shown indented; sent as given\):/);
    expect(declined.stderr).toContain(`      "backup_id": "${backupIds[0]}"`);
  });

  it('a body with schema problems asks a second time on a terminal', async () => {
    const body = JSON.stringify({ backup_id: backupIds[0], restore_type: 'everything' });
    const declined = await dpx(['call', 'restores', 'create_restore', '--body', body, '--allow-writes'], {
      env: env(),
      stderrTTY: true,
      typed: 'n\n',
    });
    expect(declined.code).toBe(4);
    expect(declined.stderr).toContain("send it anyway, to test the server's own validation? [y/N]");
    const accepted = await dpx(['call', 'restores', 'create_restore', '--body', body, '--allow-writes'], {
      env: env(),
      stderrTTY: true,
      typed: 'y\ny\n',
    });
    expect(accepted.code).toBe(1);
    expect(accepted.stderr).toContain('[invalid_body]');
  });

  it('a control character in the unit is refused before anything is sent, with its own message', async () => {
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'users', 'list_users', '--ou', 'Acme\nCorp'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: the organizational unit \(header x-\w+-organizationalunit-context\) holds U\+000A \(a line break\)/m,
    );
    expect(stderr).not.toMatch(/could not reach/);
    expect(demo.region.requestCount()).toBe(before);
  });

  it('--ou takes a unit by name or path; an unknown one is named', async () => {
    const acme = demo.region.units.find((unit) => unit.name === 'Acme Corp')!;
    const byName = await dpx(
      ['call', 'users', 'list_users', '--ou', 'acme corp', '--query', 'limit=3', '--fields', 'organizational_unit_id'],
      { env: env() },
    );
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain(acme.id);
    const unknown = await dpx(['call', 'users', 'list_users', '--ou', 'Nowhere Ltd'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: --ou Nowhere Ltd: no unit has that id, name or path/m);
  });

  it('the printed curl reads the token from the file dpx read it from, and runs as pasted', async () => {
    const folder = temporaryFolder('dpx-token-');
    const file = join(folder, 'eu.token');
    writeFileSync(file, `${demo.region.tokens.personal}\n`, { mode: 0o600 });
    const id = await someUserId();
    const { code, stdout } = await dpx(['call', 'users', 'get_user', id, '--dry-run', '--token-file', file], {
      env: { DPX_BASE_URL: demo.region.baseUrl },
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`-H "Authorization: Bearer $(cat '${file}')"`);
    const ran = await promisify(execFile)('bash', ['-c', stdout.replace(/^curl /, 'curl -sf ')], {
      env: { PATH: process.env['PATH'] },
    });
    expect((JSON.parse(ran.stdout) as { id: string }).id).toBe(id);
  });

  it('--vendor overrides the vendor the index names, as its help says', async () => {
    const id = await someUserId();
    const { stdout } = await dpx(['call', 'users', 'get_user', id, '--dry-run', '--vendor', 'acme'], { env: env() });
    expect(stdout).toContain('accept: application/api.acme.users=v2+json');
    const help = await dpx(['--help'], { env: env() });
    expect(help.stdout).toMatch(
      /--vendor NAME\s+vendor token of the media types; overrides the one the index's Content-Type/,
    );
  });
});

describe('a typed DELETE', () => {
  it('without a terminal, --yes is not enough: --confirm-id must name the record', async () => {
    const id = await someUserId();
    const before = demo.region.requestCount();
    const yes = await dpx(['call', 'users', 'delete_user', id, ...writes], { env: env() });
    expect(yes.code).toBe(4);
    expect(yes.stderr).toMatch(new RegExp(`^hint: add --confirm-id ${id}`, 'm'));
    const wrong = await dpx(['call', 'users', 'delete_user', id, '--allow-writes', '--confirm-id', 'someone-else'], {
      env: env(),
    });
    expect(wrong.code).toBe(4);
    expect(demo.region.requestCount() - before).toBe(2);
    const right = await dpx(['call', 'users', 'delete_user', id, '--allow-writes', '--confirm-id', id], { env: env() });
    expect(right.code).toBe(0);
    expect(right.stderr).toMatch(/^204 /m);
  });

  it('on a terminal, asks for the id to be typed', async () => {
    const id = await someUserId();
    const wrong = await dpx(['call', 'users', 'delete_user', id, '--allow-writes', '--yes'], {
      env: env(),
      stderrTTY: true,
      typed: 'y\n',
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain(`DELETE ${demo.region.baseUrl}/users/${id}`);
    expect(wrong.stderr).toContain(`type ${id} to delete it`);
    const typed = await dpx(['call', 'users', 'delete_user', id, '--allow-writes'], {
      env: env(),
      stderrTTY: true,
      typed: `${id}\n`,
    });
    expect(typed.code).toBe(0);
    const gone = await dpx(['call', 'users', 'get_user', id], { env: env() });
    expect(gone.code).toBe(1);
  });
});

describe('what it started', () => {
  it('a positional id fills the one path variable; -i prints the status and headers first', async () => {
    const id = await someUserId();
    const { code, stdout } = await dpx(['call', 'users', 'get_user', id, '-i'], { env: env() });
    expect(code).toBe(0);
    const [head, body] = stdout.split('\n\n');
    expect(head).toMatch(/^HTTP 200 OK\n/);
    expect(head).toMatch(/^content-type: application\/api\.service\.users=v2\+json/m);
    expect((JSON.parse(body!) as { id: string }).id).toBe(id);
    const twoVariables = await dpx(['call', 'users', 'list_users', id], { env: env() });
    expect(twoVariables.code).toBe(2);
  });

  it('--body - reads the body from standard input; a 202 prints its Location and the task id', async () => {
    const { code, stdout, stderr } = await dpx(['call', 'restores', 'create_restore', '--body', '-', ...writes], {
      env: env(),
      piped: restoreBody(1),
    });
    expect(code).toBe(0);
    const task = JSON.parse(stdout) as { id: string; status: string };
    expect(stderr).toMatch(/^202 Accepted/m);
    expect(stderr).toContain(`Location: /tasks/${task.id}`);
    expect(stderr).toContain(`task ${task.id} (tasks) started`);
  });

  it.concurrent('--wait follows the task: exit 0 when it completed, 6 when it failed', async ({ expect }) => {
    const outcomes = new Map<number, string>();
    // The demo decides each restore's outcome by its task's id: try backups until both have been seen.
    for (let i = 0; i < backupIds.length && outcomes.size < 2; i++) {
      const { code, stdout, stderr } = await dpx(
        ['call', 'restores', 'create_restore', '--body', restoreBody(i), ...writes, '--wait'],
        { env: env() },
      );
      const final = JSON.parse(stdout) as { status: string };
      if (code === 0) expect(final.status).toBe('completed');
      if (code === 6) {
        expect(final.status).toBe('failed');
        expect(stderr).toMatch(/ended without success: failed/);
        expect(stderr).toMatch(/^ {2}error_code: /m);
      }
      expect(stderr).toMatch(/: queued|: in_progress/);
      outcomes.set(code, final.status);
    }
    expect(outcomes.get(0)).toBe('completed');
    if (!outcomes.has(6)) {
      // Every restore tried succeeded: an aborted task ends without success too.
      const started = await dpx(['call', 'restores', 'create_restore', '--body', restoreBody(0), ...writes], {
        env: env(),
      });
      const taskId = (JSON.parse(started.stdout) as { id: string }).id;
      const aborted = await dpx(['call', 'tasks', 'abort_task', taskId, ...writes, '--wait'], { env: env() });
      expect(aborted.code).toBe(6);
      expect((JSON.parse(aborted.stdout) as { status: string }).status).toBe('aborted');
    }
  });

  it.concurrent('--wait prints the final task as -o and --fields ask, progress on stderr', async ({ expect }) => {
    const table = await dpx(
      [
        'call',
        'restores',
        'create_restore',
        '--body',
        restoreBody(6),
        ...writes,
        '--wait',
        '-o',
        'table',
        '--fields',
        'id,status',
      ],
      { env: env() },
    );
    expect([0, 6]).toContain(table.code);
    const [head, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^id\s+status$/);
    expect(row).toMatch(/^[0-9a-f-]{36}\s+(completed|failed)$/);
    expect(rest).toEqual([]);
    expect(table.stderr).toMatch(/: queued|: in_progress/);

    const json = await dpx(
      ['call', 'restores', 'create_restore', '--body', restoreBody(7), ...writes, '--wait', '--fields', 'id,status'],
      { env: env() },
    );
    const final = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(final)).toEqual(['id', 'status']);
    expect(json.code).toBe(final['status'] === 'completed' ? 0 : 6);

    const lines = await dpx(
      [
        'call',
        'restores',
        'create_restore',
        '--body',
        restoreBody(8),
        ...writes,
        '--wait',
        '-o',
        'ndjson',
        '--fields',
        'status',
      ],
      { env: env() },
    );
    expect(lines.stdout).toMatch(/^\{"status":"(completed|failed)"\}\n$/);
  });

  it.concurrent('--wait on a task read by its id follows it too', async ({ expect }) => {
    const started = await dpx(['call', 'restores', 'create_restore', '--body', restoreBody(4), ...writes], {
      env: env(),
    });
    const taskId = (JSON.parse(started.stdout) as { id: string }).id;
    const followed = await dpx(['call', 'tasks', 'get_task', taskId, '--wait'], { env: env() });
    const final = JSON.parse(followed.stdout) as { id: string; status: string };
    expect(final.id).toBe(taskId);
    expect(followed.code).toBe(final.status === 'completed' ? 0 : 6);
    expect(['completed', 'failed']).toContain(final.status);
  });

  it.concurrent('--wait on an aborted task exits 6', async ({ expect }) => {
    const started = await dpx(['call', 'restores', 'create_restore', '--body', restoreBody(2), ...writes], {
      env: env(),
    });
    const taskId = (JSON.parse(started.stdout) as { id: string }).id;
    const aborted = await dpx(['call', 'tasks', 'abort_task', taskId, ...writes, '--wait'], { env: env() });
    expect(aborted.code).toBe(6);
    expect((JSON.parse(aborted.stdout) as { status: string }).status).toBe('aborted');
  });

  it('Ctrl-C while waiting exits 130 and says the task goes on', async () => {
    const { code, stderr } = await interruptedRestore(restoreBody(3), env());
    expect(code).toBe(130);
    expect(stderr).toMatch(/stopped watching task [0-9a-f-]+ .*: the task goes on on the control plane/);
  });

  it('SIGTERM while waiting exits 143, as the exit-code table says', async () => {
    const { code, stderr } = await interruptedRestore(restoreBody(4), env(), new Interruption('SIGTERM'));
    expect(code).toBe(143);
    expect(stderr).toContain('the task goes on on the control plane');
  });
});
