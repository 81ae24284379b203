// Typos exit 2 with the closest candidates: commands, options, resources, operation ids, profile names and
// `--by` fields, the last four learnt over HTTP from the hostile-text control plane. Node's parser never
// speaks to the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closest } from '../../../src/api/hal/did-you-mean.js';
import type { TestServer } from '../../helpers/servers.js';
import { startHostileText } from '../../helpers/hostile-text.js';
import { dpx, type CliResult } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startHostileText();
});
afterAll(() => server.close());

const env = () => ({ DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'hostile-test-token' });

/** Exit 2, the hint offering `suggestion`, and none of node's own parser text. */
function expectSuggestion(result: CliResult, error: string, suggestion: string): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(`error: ${error}`);
  expect(result.stderr).toMatch(
    new RegExp(`^hint: did you mean ${suggestion.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}\\?`, 'm'),
  );
  expect(result.stderr).not.toMatch(/Unknown option|positional argument|ERR_PARSE_ARGS|To specify/);
}

describe('did you mean', () => {
  it('an unknown command', async () => {
    expectSuggestion(await dpx(['lsit', 'items']), "unknown command 'lsit'", 'list');
    expectSuggestion(await dpx(['xrya']), "unknown command 'xrya'", 'xray');
  });

  it("an unknown option, the command's or a global one, before or after the command", async () => {
    expectSuggestion(
      await dpx(['list', 'items', '--fitler', '{}']),
      "unknown option '--fitler' for dpx list",
      '--filter',
    );
    expectSuggestion(await dpx(['--profle', 'eu', 'list', 'items']), "unknown option '--profle' for dpx", '--profile');
    expectSuggestion(
      await dpx(['xray', 'items', 'i-1', '--dpeth', '2']),
      "unknown option '--dpeth' for dpx xray",
      '--depth',
    );
  });

  it('an option missing its value, or given one it does not take, in dpx words', async () => {
    for (const argv of [['list', 'items', '--fields'], ['list', 'items', '--all=yes'], ['--profile'], ['list', '-x']]) {
      const result = await dpx(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^error: (--fields needs a value|--all takes no value, not 'yes'|--profile needs a value|unknown option '-x' for dpx list)\nhint: /,
      );
      expect(result.stderr).not.toMatch(
        /Unknown option|positional argument|ERR_PARSE_ARGS|To specify|argument missing|does not take an argument/,
      );
    }
  });

  it("a resource the server's index does not have", async () => {
    expectSuggestion(await dpx(['list', 'item'], { env: env() }), 'unknown resource: item', 'items');
    expectSuggestion(await dpx(['operations', 'brokn'], { env: env() }), 'unknown resource: brokn', 'broken');
  });

  it('an operation id, in call and in list --op', async () => {
    expectSuggestion(
      await dpx(['call', 'items', 'get_iten', '--var', 'item_id=i-1'], { env: env() }),
      'items v2 has no operation get_iten',
      'get_item',
    );
    expectSuggestion(
      await dpx(['list', 'items', '--op', 'list_itmes'], { env: env() }),
      'items v2 has no operation list_itmes',
      'list_items',
    );
  });

  it('a profile name', async () => {
    expect((await dpx(['profile', 'add', 'europe', '--base-url', server.baseUrl])).code).toBe(0);
    expectSuggestion(
      await dpx(['--profile', 'europa', 'resources'], { env: { DPX_TOKEN: 'hostile-test-token' } }),
      'no profile named "europa"',
      'europe',
    );
  });

  it('a --by field no record has', async () => {
    expectSuggestion(
      await dpx(['count', 'items', '--by', 'stauts'], { env: env() }),
      'the records of items have no field stauts to count by',
      'status',
    );
  });
});

describe('closest', () => {
  it('offers swaps, slips and prefixes, closest first, and nothing far off', () => {
    expect(closest('lsit', ['list', 'diff', 'xray'])).toEqual(['list']);
    expect(closest('task', ['tasks', 'tags', 'users'])).toEqual(['tasks', 'tags']);
    expect(closest('prot', ['protection-groups', 'policies'])).toEqual(['protection-groups']);
    expect(closest('zzzz', ['list', 'count'])).toEqual([]);
  });
});
