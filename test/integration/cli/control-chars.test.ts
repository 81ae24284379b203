// Input checked before it is sent (issue 38): a control character in an id, a variable or a token is
// refused with exit 2, the character shown inert with where it was, and no request leaves; csv lines end
// in LF, or CR LF with --csv-crlf — so an id cut from a csv line no longer carries a CR.
import { describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 10, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

async function csvLines(extra: string[] = []): Promise<string> {
  const { code, stdout } = await dpx(
    ['list', 'users', '--page-size', '2', '-o', 'csv', '--fields', 'id,name', ...extra],
    { env: env() },
  );
  expect(code).toBe(0);
  return stdout;
}

describe('a control character is refused before anything is sent', () => {
  it('in an id: the CR a CR LF csv line leaves on it', async () => {
    const crlf = await csvLines(['--csv-crlf']);
    const id = crlf.split('\n')[1]!.split(',')[0]!;
    const withCr = `${id}\r`;
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'users', 'get_user', withCr], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toContain(`error: the id holds ␍ (U+000D, a carriage return) at character ${withCr.length}: ${id}␍`);
    expect(stderr).toContain('nothing was sent');
    expect(stderr).not.toContain('\r');
    expect(demo.region.requestCount()).toBe(before);
  });

  it('in a variable, for call and for list', async () => {
    const before = demo.region.requestCount();
    const call = await dpx(['call', 'users', 'get_user', '--var', 'user_id=a\u001b[2Jb'], { env: env() });
    expect(call.code).toBe(2);
    expect(call.stderr).toContain('the value of user_id holds ␛ (U+001B, an escape) at character 2: a␛[2Jb');
    const list = await dpx(['list', 'users', '--var', 'x=1\n2'], { env: env() });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('the value of x holds ␊ (U+000A, a line feed) at character 2');
    expect(demo.region.requestCount()).toBe(before);
  });

  it('in a token: exit 2, the character and where, never the token', async () => {
    const token = demo.region.tokens.personal;
    const broken = `${token.slice(0, 10)}\u0001${token.slice(10)}`;
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['list', 'users'], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: broken },
    });
    expect(code).toBe(2);
    expect(stderr).toContain('DPX_TOKEN holds ␁ (U+0001, a control character) at character 11; nothing was sent');
    expect(stderr).not.toContain(token.slice(0, 10));
    expect(stderr).not.toContain('ERR_INVALID_CHAR');
    expect(demo.region.requestCount()).toBe(before);
    expect(tokensShown([token])).toEqual([]);
  });
});

describe('csv line ends', () => {
  it('are LF by default, and CR LF with --csv-crlf', async () => {
    const lf = await csvLines();
    expect(lf).not.toContain('\r');
    expect(lf.split('\n')).toHaveLength(4);
    const crlf = await csvLines(['--csv-crlf']);
    expect(crlf.split('\r\n')).toHaveLength(4);
    expect(crlf.replace(/\r\n/g, '\n')).toBe(lf);
  });

  it('an id cut from a default csv line is sent as it is and found', async () => {
    const id = (await csvLines()).split('\n')[1]!.split(',')[0]!;
    const { code, stdout } = await dpx(['call', 'users', 'get_user', id], { env: env() });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { id: string }).id).toBe(id);
  });
});
