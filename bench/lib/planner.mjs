// The count planner's figure: `dpx count tasks --by status --ou all` on the demo at the size of a managed
// service provider (40 tenants, 266 units, 19,686 tasks, live tasks frozen so that every run counts the
// same), the auto plan (one scan of the root's list, checked) against the per-cell plan, both under the
// same rate ceiling. Requests as each run's json says it sent them; time is the whole command's.
import { median, runNode } from './measure.mjs';

export const PLANNER_TENANTS = 40;
/** The ceiling both plans run under: a real control plane's pace, where requests are what costs. */
export const PLANNER_RATE = 50;
export const PLANNER_RUNS = 3;

export async function countPlanner(bundle, env) {
  const args = (plan) => [
    bundle,
    'count',
    'tasks',
    '--by',
    'status',
    '--ou',
    'all',
    '--rate',
    String(PLANNER_RATE),
    '--plan',
    plan,
    '--output',
    'json',
  ];
  const runs = { auto: [], cells: [] };
  let rowsEqual = true;
  // Interleaved, so drift in the machine's load lands on both plans alike.
  for (let i = 0; i < PLANNER_RUNS; i += 1) {
    for (const plan of ['auto', 'cells']) {
      const run = await runNode(args(plan), env, { keepStdout: true });
      if (run.code !== 0)
        throw new Error(
          `dpx count --plan ${plan} exited with ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`,
        );
      const document = JSON.parse(run.stdout);
      runs[plan].push({
        ms: run.ms,
        requests: document.requests,
        chosen: document.plan.chosen,
        verification: document.plan.verification,
        checks: document.plan.verified.length,
        rows: JSON.stringify(document.rows),
      });
    }
    rowsEqual &&= runs.auto.at(-1).rows === runs.cells.at(-1).rows;
  }
  const summary = (all) => ({
    ms: median(all.map((run) => run.ms)),
    requests: median(all.map((run) => run.requests)),
    runsMs: all.map((run) => run.ms),
    runsRequests: all.map((run) => run.requests),
  });
  const auto = summary(runs.auto);
  const cells = summary(runs.cells);
  return {
    auto,
    cells,
    chosen: [...new Set(runs.auto.map((run) => run.chosen))].join(', '),
    verified: runs.auto.filter((run) => run.verification === 'verified').length,
    checks: runs.auto[0].checks,
    runs: PLANNER_RUNS,
    rowsEqual,
    requestRatio: auto.requests / cells.requests,
    timeRatio: auto.ms / cells.ms,
  };
}

/** The planner's rows of the bench table. */
export function plannerRows(p, format) {
  const label = `count planner: tasks by status over ${PLANNER_TENANTS} tenants (266 units), --rate ${PLANNER_RATE}, auto (${p.chosen}) vs per cell`;
  return [
    {
      figure: `${label}: requests (median of ${p.runs})`,
      dpx: String(p.auto.requests),
      baseline: String(p.cells.requests),
      value: `${format(p.requestRatio)}×`,
      target: '≤ 0.15×',
      met: p.requestRatio <= 0.15,
    },
    {
      figure: `${label}: time (median ms of ${p.runs})`,
      dpx: format(p.auto.ms, 0),
      baseline: format(p.cells.ms, 0),
      value: `${format(p.timeRatio)}×`,
      target: '≤ 0.2×',
      met: p.timeRatio <= 0.2,
    },
    {
      figure: `${label}: every cell and total equal; the scan verified (${p.checks} checks a run)`,
      dpx: `verified ${p.verified} of ${p.runs}`,
      baseline: '—',
      value: `equal: ${p.rowsEqual ? 'yes' : 'NO'}`,
      target: 'equal, verified every run',
      met: p.rowsEqual && p.verified === p.runs,
    },
  ];
}
