// `dpx call users update_user ID --edit` starts from the record, as the explorer does (issue 38): the
// editor is offered the record's values the schema accepts, not the schema's examples, and a PATCH sends
// only what was changed.
import { describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { curlBody, recordingEditor } from '../../helpers/editor.js';
import { dpx } from './harness.js';

const demo = useDemo({ frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

describe('call … --edit of a record', () => {
  it('starts from the record and sends only the fields changed', async () => {
    const listed = await dpx(['list', 'users', '--page-size', '1', '-o', 'json'], { env: env() });
    const user = (JSON.parse(listed.stdout) as { items: Record<string, unknown>[] }).items[0]!;
    const editor = recordingEditor(env);
    const rename = `s#"full_name": "${String(user['full_name'])}"#"full_name": "Renamed Person"#`;
    const { code, stdout, stderr } = await dpx(
      ['call', 'users', 'update_user', String(user['id']), '--edit', '--dry-run'],
      {
        env: editor.env(rename),
      },
    );
    expect(code, stderr).toBe(0);
    const offered = editor.seen();
    expect(offered).toContain(`"full_name": "${String(user['full_name'])}"`);
    expect(offered).toContain(`"name": "${String(user['name'])}"`);
    if (user['full_name'] !== 'Ada Lovelace') expect(offered).not.toContain('Ada Lovelace');
    expect(offered).not.toMatch(/"id":|created_timestamp|_links/);
    expect(curlBody(stdout)).toEqual({ full_name: 'Renamed Person' });
  });
});
