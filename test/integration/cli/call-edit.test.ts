// `dpx call users update_user ID --edit` starts from the record, as the explorer does (issue 38): the
// editor is offered the record's values the schema accepts, not the schema's examples, and a PATCH sends
// only what was changed.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx } from './harness.js';

const demo = useDemo({ frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

/** An $EDITOR that copies what it was offered to $SEEN, then applies the sed script in $EDIT. */
function recordingEditor(): { env: (edit?: string) => NodeJS.ProcessEnv; seen: () => string } {
  const folder = mkdtempSync(join(tmpdir(), 'dpx-editor-'));
  const script = join(folder, 'editor.sh');
  writeFileSync(script, '#!/bin/sh\ncp "$1" "$SEEN"\nif [ -n "$EDIT" ]; then sed -i "$EDIT" "$1"; fi\n');
  chmodSync(script, 0o755);
  const seen = join(folder, 'seen.jsonc');
  return {
    env: (edit) => ({ ...env(), EDITOR: script, VISUAL: '', SEEN: seen, EDIT: edit ?? '', PATH: process.env['PATH'] }),
    seen: () => readFileSync(seen, 'utf8'),
  };
}

const curlBody = (curl: string): unknown => JSON.parse(/--data-raw '([^']*)'/.exec(curl)![1]!);

describe('call … --edit of a record', () => {
  it('starts from the record and sends only the fields changed', async () => {
    const listed = await dpx(['list', 'users', '--page-size', '1', '-o', 'json'], { env: env() });
    const user = (JSON.parse(listed.stdout) as { items: Record<string, unknown>[] }).items[0]!;
    const editor = recordingEditor();
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
