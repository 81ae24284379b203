// `--wait` finished (issue 38): interrupted, it names a command that runs (the operation id was missing
// when the task came as a link), and the final task is printed as -o asks.
import { beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx } from './harness.js';
import { listIds } from './ids.js';
import { interruptedRestore } from './interrupt.js';

const demo = useDemo({ taskSpeed: 60 });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const writes = ['--allow-writes', '--yes'];
let backupIds: string[] = [];

beforeAll(async () => {
  backupIds = await listIds('backups', 10, env());
});

const restoreBody = (index: number) => JSON.stringify({ backup_id: backupIds[index], restore_type: 'full' });

describe('dpx call … --wait', () => {
  it('Ctrl-C: the hint is a command that runs and shows the task', async () => {
    const { code, stderr } = await interruptedRestore(restoreBody(5), env());
    expect(code).toBe(130);
    const hint = /see it with dpx (call \S+ \S+ \S+)/.exec(stderr)?.[1];
    expect(hint, stderr).toBeDefined();
    const argv = hint!.split(' ');
    expect(argv[2]).not.toBe('');
    const shown = await dpx([...argv, '-o', 'json'], { env: env() });
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { id: string }).id).toBe(argv[3]);
  });

  it('prints the final task as -o asks', async () => {
    const { code, stdout } = await dpx(
      [
        'call',
        'restores',
        'create_restore',
        '--body',
        restoreBody(6),
        ...writes,
        '--wait',
        '-o',
        'csv',
        '--fields',
        'id,status',
      ],
      { env: env() },
    );
    expect([0, 6]).toContain(code);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,status');
    expect(lines).toHaveLength(2);
  }, 30_000);
});
