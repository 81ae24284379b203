// How the operation form shares the lines it has. A form of many fields (a restore's body) is taller than
// an 80×24 terminal: the rows — variables, the OU, the body fields, the body, the button — are shown as a
// window around the focused one, with where it is ("fields 4–9 of 14 · ↑3 ↓5 more"); the operation's
// title, its problems, the message of the last key and the focused field's description keep their lines.
import { formProblems, type FormProblem } from '../../../api/operations/form.js';
import { writeRefusal } from '../../../api/security/safety.js';
import { oneLine, wrapLines } from '../../../text/cells.js';
import { share, windowOf, windowText, type RowWindow } from '../../layout.js';
import { rowsOf } from './form-rows.js';
import type { FormState } from './form-state.js';

/** One thing drawn in the rows' window: a row (by its index in rowsOf), a heading over rows, or a blank line. */
export type FormItem =
  | { kind: 'row'; row: number; height: number }
  | { kind: 'heading'; text: 'no template variables' | 'body fields'; height: 1 }
  | { kind: 'gap'; height: 1 };

export interface FormLayout {
  href: boolean;
  refusal: string[];
  url: boolean;
  /** Blank lines between the groups of rows: only when every row is shown with them. */
  gaps: boolean;
  /** A blank line between the rows and the problems, message and description under them. */
  belowGap: boolean;
  items: FormItem[];
  /** The items shown. */
  window: RowWindow;
  /** Where the window is among the rows, when it does not show them all. */
  where?: string;
  /** The body editor's lines of text, and whether it says which lines it shows. */
  body: BodyView;
  /** The problems, as many as fit, then how many more there are. */
  problems: string[];
  message: string[];
  /** The focused body field's description. */
  about: string[];
}

const MAX_PROBLEMS = 5;
/** The body editor's lines of text, at least, while it has the focus (the rest of the form scrolls). */
const MIN_BODY_LINES = 5;
/** The body's label, and the editor's two border lines. */
const BODY_CHROME = 3;

/**
 * How the body editor is drawn: lines of its text (none: its label alone, the editor out of the window's
 * room), and whether a line under them says which (when it scrolls).
 */
interface BodyView {
  lines: number;
  position: boolean;
}

const bodyHeight = (body: BodyView) => (body.lines === 0 ? 1 : BODY_CHROME + body.lines + (body.position ? 1 : 0));

/** The items of the rows' window, the body drawn as `body` says, blank lines between the groups with `gaps`. */
function itemsOf(state: FormState, body: BodyView, gaps: boolean): FormItem[] {
  const { form } = state;
  const rows = rowsOf(form);
  const items: FormItem[] = [];
  if (form.fields.length === 0) items.push({ kind: 'heading', text: 'no template variables', height: 1 });
  rows.forEach((row, index) => {
    if (row.kind === 'body-field' && rows[index - 1]?.kind !== 'body-field') {
      if (gaps) items.push({ kind: 'gap', height: 1 });
      items.push({ kind: 'heading', text: 'body fields', height: 1 });
    }
    if (row.kind === 'body' && gaps) items.push({ kind: 'gap', height: 1 });
    // A row being typed in shows one line, and one more saying which when the typed text has several.
    const typedLines =
      index === state.focus && state.editing && row.kind !== 'body' && state.editing.text.includes('\n') ? 1 : 0;
    items.push({ kind: 'row', row: index, height: row.kind === 'body' ? bodyHeight(body) : 1 + typedLines });
  });
  return items;
}

const total = (items: readonly FormItem[]) => items.reduce((sum, item) => sum + item.height, 0);

/** The form in `height` lines of `width` cells, the window starting from `state.top` when the focus is in it. */
export function formLayout(state: FormState, width: number, height: number): FormLayout {
  const { form, schema } = state;
  const rows = rowsOf(form);
  const focus = Math.min(state.focus, rows.length - 1);
  const session = state.flow.origin.connection.session;
  const refusal = writeRefusal(form.operation.method, session.readOnly);
  const refusalText = refusal
    ? `${refusal.message} — W turns writes on here (typed confirmation), or ${refusal.hint}`
    : '';
  const problems = formProblems(form, schema);
  const focused = rows[focus];
  const description =
    focused?.kind === 'body-field' && !state.editing && focused.field.description
      ? `${focused.field.name}: ${focused.field.description}`
      : '';
  const lineWidth = Math.max(1, width - 1);
  const refusalLines = refusalText ? wrapLines(refusalText, lineWidth, 2) : [];
  const messageLines = state.message ? wrapLines(state.message, lineWidth, 3) : [];
  const aboutLines = description ? wrapLines(description, lineWidth, 2) : [];
  // Only the focused field's description has lines kept for it: the rows' window grows and shrinks by them as
  // the focus moves (keeping the focus in view), rather than leaving lines blank for a longer one elsewhere.
  const bodyText = state.editing && focused?.kind === 'body' ? state.editing.text : form.body;
  const bodyNatural = Math.max(1, bodyText.split('\n').length);
  const whole: BodyView = { lines: bodyNatural, position: false };
  const plain = total(itemsOf(state, whole, false));
  const spaced = total(itemsOf(state, whole, true));
  const bodyFocused = focused?.kind === 'body';
  const leastBody = Math.min(bodyNatural, MIN_BODY_LINES);
  const focusHeight = bodyFocused ? bodyHeight({ lines: leastBody, position: bodyNatural > leastBody }) : 1;
  const problemLines = Math.min(problems.length, MAX_PROBLEMS) + (problems.length > MAX_PROBLEMS ? 1 : 0);
  const below = problemLines + messageLines.length + aboutLines.length;

  // Least first, in this order: the title, the focused row (and the line saying where it is), the problems,
  // the message, the refusal. Then more: the title, the refusal, the URL, the problems, the message, the
  // description, the operation's href; the rows get what those leave, and a blank line is left only when
  // everything else is shown.
  const parts = [
    { least: 1, most: 1 },
    { least: Math.min(plain, focusHeight + 1), most: spaced },
    { least: Math.min(1, problemLines), most: problemLines },
    { least: Math.min(1, messageLines.length), most: messageLines.length },
    { least: Math.min(1, refusalLines.length), most: refusalLines.length },
    { least: 0, most: aboutLines.length },
    { least: 0, most: 1 },
    { least: 0, most: 1 },
    { least: 0, most: below > 0 ? 1 : 0 },
  ];
  const [
    ,
    rowsRoom = 0,
    problemRoom = 0,
    messageRoom = 0,
    refusalRoom = 0,
    aboutRoom = 0,
    urlRoom = 0,
    hrefRoom = 0,
    belowGap = 0,
  ] = share(height, parts, [0, 4, 6, 2, 3, 5, 7, 1, 8]);

  const fits = plain <= rowsRoom;
  const gaps = spaced <= rowsRoom;
  const windowRoom = fits ? rowsRoom : Math.max(1, rowsRoom - 1);
  // The body takes what the window has, less a line for a row beside it when there is room for one, and
  // a line saying which of its lines it shows when it has room for two or more.
  const textRoom = windowRoom - BODY_CHROME;
  const viewIn = (room: number): BodyView =>
    bodyNatural <= room ? whole : room >= 2 ? { lines: room - 1, position: true } : { lines: 1, position: false };
  // The focused body keeps its least lines before a row beside it is shown.
  const besideWanted = rows.length > 1 && textRoom - 1 >= 3 ? 1 : 0;
  const beside = bodyFocused && viewIn(textRoom - besideWanted).lines < leastBody ? 0 : besideWanted;
  const body: BodyView = fits ? whole : viewIn(textRoom - beside);
  const items = itemsOf(state, body, gaps);
  const focusItem = items.findIndex((item) => item.kind === 'row' && item.row === focus);
  let window = fits
    ? { top: 0, end: items.length }
    : windowOf(
        items.map((item) => item.height),
        focusItem,
        windowRoom,
        state.top ?? 0,
      );
  // The lines the window leaves are filled with the items just past its ends, those below it first, so no
  // line is blank while rows are hidden. The body among them is shown in the lines left: its first lines
  // and which they are, or, with fewer than its box needs, its label alone.
  let shownBody = body;
  const bodyItem = items.findIndex((item) => item.kind === 'row' && rows[item.row]?.kind === 'body');
  let left = fits ? 0 : windowRoom - total(items.slice(window.top, window.end));
  const fill = (at: number): boolean => {
    const item = items[at];
    if (!item || left <= 0) return false;
    if (at === bodyItem) {
      shownBody = left > BODY_CHROME ? viewIn(left - BODY_CHROME) : { lines: 0, position: false };
      items[at] = { ...item, height: bodyHeight(shownBody) } as FormItem;
    }
    if (items[at]!.height > left) return false;
    left -= items[at]!.height;
    return true;
  };
  while (fill(window.end)) window = { top: window.top, end: window.end + 1 };
  while (fill(window.top - 1)) window = { top: window.top - 1, end: window.end };
  const shownRows = items.slice(window.top, window.end).flatMap((item) => (item.kind === 'row' ? [item.row] : []));
  const where =
    fits || shownRows.length === 0
      ? undefined
      : windowText('fields', { top: shownRows[0]!, end: shownRows.at(-1)! + 1 }, rows.length);
  return {
    href: hrefRoom > 0,
    refusal: refusalLines.length > refusalRoom ? wrapLines(refusalText, lineWidth, refusalRoom) : refusalLines,
    url: urlRoom > 0,
    gaps,
    belowGap: belowGap > 0,
    items,
    window,
    ...(where ? { where } : {}),
    body: shownBody,
    problems: problemText(problems, problemRoom),
    message: messageLines.length > messageRoom ? wrapLines(state.message ?? '', lineWidth, messageRoom) : messageLines,
    about: aboutLines.slice(0, aboutRoom),
  };
}

/** The problems in `room` lines: as many as fit (five at most), then how many more there are. */
function problemText(problems: readonly FormProblem[], room: number): string[] {
  if (room <= 0 || problems.length === 0) return [];
  const line = (problem: FormProblem) => `✗ ${oneLine(`${problem.where}: ${problem.message}`)}`;
  if (problems.length <= Math.min(room, MAX_PROBLEMS)) return problems.map(line);
  if (room === 1) return [`✗ 1 of ${problems.length}: ${oneLine(`${problems[0]!.where}: ${problems[0]!.message}`)}`];
  const shown = Math.min(room - 1, MAX_PROBLEMS);
  return [...problems.slice(0, shown).map(line), `… ${problems.length - shown} more`];
}

/** The first item of the window once the focus is on `focus`, scrolled as little as the move needs from where it was. */
export function formTop(state: FormState, focus: number, width: number, height: number): number {
  const shown = formLayout(state, width, height).window.top;
  return formLayout({ ...state, focus, top: shown }, width, height).window.top;
}
