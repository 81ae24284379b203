// The ticket's three-command case (docs/cases-and-reports.md, "From a ticket to a report"), recorded over HTTP against the
// 40-tenant demo: a count of restore tasks by status per tenant since yesterday, the failed ones grouped
// by error code, and the x-ray of one of them (found by a fourth command, not recorded). Each command is recorded with `-o json`, so the answers it
// printed then are what its report must show. Used by the parser test and the browser test.
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DemoFixture } from './demo.js';
import { dpx } from '../integration/cli/harness.js';
import { temporaryFolder } from './temporary.js';

export interface MatrixRow {
  ou_name: string;
  depth: number;
  counts: Record<string, number>;
  total: number;
}
export interface RecordedCase {
  file: string;
  dir: string;
  count: { columns: string[]; rows: MatrixRow[] };
  groups: { groups: { key: Record<string, string>; count: number }[]; records: number };
  xray: { root: string; nodes: { key: string; label: string; resource: string }[]; edges: unknown[] };
  argv: string[][];
  tokens: string[];
}

const RESTORES = '{"category":{"$eq":"restore"}}';
const FAILED_RESTORES = '{"category":{"$eq":"restore"},"status":{"$eq":"failed"}}';

export async function recordTicketCase(demo: DemoFixture): Promise<RecordedCase> {
  const dir = temporaryFolder('dpx-report-');
  const file = join(dir, 'case.har');
  const env = { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal };
  const run = async (argv: string[], trail = true): Promise<unknown> => {
    const result = await dpx([...(trail ? ['--trail', file] : []), ...argv, '-o', 'json'], { env });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  const countArgv = [
    'count',
    'tasks',
    '--by',
    'status',
    '--filter',
    RESTORES,
    '--ou',
    'all',
    '--since',
    'yesterday',
    '--depth',
    '1',
    '--sort',
    '-failed',
    '--nonzero',
  ];
  const groupArgv = [
    'list',
    'tasks',
    '--filter',
    FAILED_RESTORES,
    '--ou',
    'all',
    '--since',
    'yesterday',
    '--group-by',
    'error_code',
  ];
  const count = (await run(countArgv)) as RecordedCase['count'];
  const groups = (await run(groupArgv)) as RecordedCase['groups'];
  const failed = (await run(
    [
      'list',
      'tasks',
      '--filter',
      FAILED_RESTORES,
      '--ou',
      count.rows[1]!.ou_name,
      '--since',
      'yesterday',
      '--page-size',
      '1',
    ],
    false,
  )) as { items: { id: string }[] };
  const xrayArgv = ['xray', 'tasks', failed.items[0]!.id];
  const xray = (await run(xrayArgv)) as RecordedCase['xray'];
  const tokens = [demo.region, demo.otherRegion].flatMap((region) => Object.values(region.tokens));
  return { file, dir, count, groups, xray, argv: [countArgv, groupArgv, xrayArgv], tokens };
}
