// The scan at its floor: `dpx count tasks --by status --ou all --plan scan` on the 40-tenant demo, its
// requests that read data (all it sent less its verification) against the least that can read every record:
// the root's pages at the largest size the list takes, the unit list's pages and the index.
import { closeAgent, getJson } from './http-get.mjs';
import { runNode } from './measure.mjs';

/** The largest page the demo's lists take: what the floor counts the root's pages at. */
const LARGEST_PAGE = 100;

export async function scanFloor(bundle, env, demo) {
  const run = await runNode(
    [bundle, 'count', 'tasks', '--by', 'status', '--ou', 'all', '--plan', 'scan', '--output', 'json'],
    env,
    { keepStdout: true },
  );
  if (run.code !== 0) throw new Error(`dpx count --plan scan exited with ${run.code}: ${run.stderr.trim()}`);
  const document = JSON.parse(run.stdout);
  const headers = { authorization: `Bearer ${demo.token}`, accept: 'application/json' };
  const tasks = await getJson(`${demo.baseUrl}/tasks?limit=1`, headers);
  const units = await getJson(`${demo.baseUrl}/organizational-units?limit=${LARGEST_PAGE}`, headers);
  closeAgent();
  const verification = document.plan.verified.length;
  return {
    requests: document.requests,
    verification,
    reading: document.requests - verification,
    floor: Math.ceil(tasks.total_count / LARGEST_PAGE) + units.total_pages_count + 1,
    chosen: document.plan.chosen,
    verified: document.plan.verification,
  };
}
