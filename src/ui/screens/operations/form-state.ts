// What the operation form screen holds: the operation being filled in, its schema, and where the cursor
// and the typing are. Apart from the screen (form.tsx), which its rows, layout and drawing (form-rows.ts,
// form-layout.ts, form-view.tsx) read too.
import type { OperationFormState } from '../../../api/operations/form.js';
import type { BodySchema } from '../../../api/operations/body.js';
import type { ScreenBase } from '../../nav/screen.js';
import type { TextBuffer } from '../../text-buffer.js';
import type { Flow } from './flow.js';

export interface FormParams {
  flow: Flow;
  form: OperationFormState;
  schema?: BodySchema;
}

export interface FormState extends ScreenBase, FormParams {
  focus: number;
  /** The first item of the rows' window (form-layout.ts), so that moving scrolls it only as far as needed. */
  top?: number;
  /** The text of the focused row while it is being typed in, with its cursor. */
  editing?: TextBuffer;
  editorBusy: boolean;
  /** Set by a first `p` on a body with schema problems: a second one previews it anyway. */
  sendAnyway?: boolean;
  message?: string;
}
