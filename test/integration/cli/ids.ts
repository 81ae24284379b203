// The ids of a demo list's first records, read through dpx itself: the records a test then acts on.
import { dpx } from './harness.js';

/** The ids of the first `pageSize` records of `resource`, as `dpx list` under `env` gives them. */
export async function listIds(resource: string, pageSize: number, env: Record<string, string>): Promise<string[]> {
  const { stdout } = await dpx(
    ['list', resource, '--page-size', String(pageSize), '--output', 'json', '--fields', 'id'],
    { env },
  );
  return (JSON.parse(stdout) as { items: { id: string }[] }).items.map((item) => item.id);
}
