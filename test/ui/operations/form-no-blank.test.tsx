// A form a little taller than an 80×24 terminal (the demo's create_protection_group, issue 38) uses its
// lines: while rows sit below the fold, no line of the form's area is blank, and moving the focus down
// through every row keeps the focused row, and the focused field's description, on screen.
import { afterAll, describe, expect, it } from 'vitest';
import { bodySchemaFor } from '../../../src/api/hal/schemas.js';
import { Session } from '../../../src/api/session/session.js';
import { rowsOf } from '../../../src/ui/screens/operations/form-rows.js';
import type { FormState } from '../../../src/ui/screens/operations/form.js';
import { useDemo } from '../../helpers/demo.js';
import { DOWN, openOperationForm, rowLabel, type OpenScreen } from './harness.js';

const demo = useDemo({ tenants: 3, frozen: true });
const TITLE = 'POST protection-groups v1 · create_protection_group';

let ui: OpenScreen | undefined;
afterAll(async () => ui?.unmount());

async function openForm(readOnly: boolean): Promise<OpenScreen> {
  const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, readOnly });
  const versions = (await session.catalog()).resources.find((resource) => resource.name === 'protection-groups')!;
  const operation = versions.versions[0]!.operations.find((candidate) => candidate.id === 'create_protection_group')!;
  const schema = bodySchemaFor('protection-groups', versions.versions[0]!.version, operation.id) as Record<
    string,
    unknown
  >;
  return openOperationForm(
    session,
    { resource: 'protection-groups', version: versions.versions[0]!.version, operation },
    schema,
    { rows: 24, columns: 80 },
  );
}

/** The form's own lines: from its title to the line over the key hints. */
function formArea(frame: string): string[] {
  const lines = frame.split('\n');
  return lines.slice(
    lines.findIndex((line) => line.includes(TITLE)),
    -1,
  );
}

describe.each([true, false])('create_protection_group at 80×24 (read-only: %s)', (readOnly) => {
  it('leaves no line blank while rows are below the fold, and keeps the focused row and its description in view', async () => {
    ui = await openForm(readOnly);
    await ui.waitFor((f) => f.includes(TITLE), 'the form');
    const state = () => ui!.navigator.top()!.state as FormState;
    const rows = rowsOf(state().form);
    let folded = 0;
    for (let focus = 0; focus < rows.length; focus++) {
      if (focus > 0) await ui.press(DOWN);
      expect(state().focus).toBe(focus);
      const frame = ui.frame();
      const what = `row ${focus + 1}:\n${frame}`;
      const area = formArea(frame);
      expect(area.length, what).toBeGreaterThan(10);
      if (/fields \d+–\d+ of \d+ · (↑\d+ )?↓\d+ more/.test(frame)) {
        folded++;
        expect(
          area.filter((line) => line.trim() === ''),
          what,
        ).toEqual([]);
      }
      const row = rows[focus]!;
      expect(frame, what).toContain(rowLabel(row));
      if (row.kind === 'body-field' && row.field.description)
        expect(frame, what).toContain(`${row.field.name}: ${row.field.description.slice(0, 30)}`);
    }
    expect(folded).toBeGreaterThan(0);
    await ui.unmount();
    ui = undefined;
  });
});
