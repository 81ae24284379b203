// What the tests of `dpx call … --edit` need: an $EDITOR that records what it was offered and edits it as
// told, and the body of the curl a --dry-run prints.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryFolder } from './temporary.js';

export interface RecordingEditor {
  /** `base` with this editor as $EDITOR, applying the sed script `edit` (none: the body is saved untouched). */
  env: (edit?: string) => NodeJS.ProcessEnv;
  /** What the editor was last offered. */
  seen: () => string;
}

/** An $EDITOR that keeps a copy of what it was offered in $SEEN, then applies the sed script in $EDIT. */
export function recordingEditor(base: () => Record<string, string>): RecordingEditor {
  const folder = temporaryFolder('dpx-editor-');
  const script = join(folder, 'editor.sh');
  writeFileSync(script, '#!/bin/sh\ncp "$1" "$SEEN"\nif [ -n "$EDIT" ]; then sed -i "$EDIT" "$1"; fi\n');
  chmodSync(script, 0o755);
  const seen = join(folder, 'seen.jsonc');
  return {
    env: (edit) => ({ ...base(), EDITOR: script, VISUAL: '', SEEN: seen, EDIT: edit ?? '', PATH: process.env['PATH'] }),
    seen: () => readFileSync(seen, 'utf8'),
  };
}

/** The body of the curl --dry-run prints, parsed. */
export const curlBody = (curl: string): unknown => JSON.parse(/--data-raw '([^']*)'/.exec(curl)![1]!);
