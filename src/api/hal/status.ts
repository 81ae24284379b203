// The one vocabulary of status words: what a word means (for colour and for counting), and whether it
// ends a task. Servers spell their states freely (`In Progress`, `in-progress`, `IN_PROGRESS`), so words
// are compared normalised; a word not listed here means nothing known, and is shown as it is.

export type StatusMeaning = 'failed' | 'succeeded' | 'warning' | 'running' | 'waiting' | 'stopped' | 'unknown';

interface Entry {
  meaning: Exclude<StatusMeaning, 'unknown'>;
  /** True for a state a task ends in; false for one it passes through, or the standing state of a thing. */
  final: boolean;
}

const VOCABULARY: [Entry, string[]][] = [
  [
    { meaning: 'failed', final: true },
    [
      'fail',
      'failed',
      'failure',
      'error',
      'errored',
      'fatal',
      'rejected',
      'expired',
      'timed_out',
      'timeout',
      'terminated',
    ],
  ],
  [{ meaning: 'failed', final: false }, ['critical', 'denied', 'unhealthy', 'down']],
  [
    { meaning: 'succeeded', final: true },
    ['complete', 'completed', 'success', 'successful', 'succeeded', 'ok', 'done', 'finished', 'resolved'],
  ],
  [{ meaning: 'succeeded', final: false }, ['healthy', 'active', 'enabled', 'up', 'available']],
  [{ meaning: 'warning', final: true }, ['partially_completed', 'partial_success']],
  [{ meaning: 'warning', final: false }, ['warning', 'degraded']],
  [
    { meaning: 'running', final: false },
    [
      'in_progress',
      'inprogress',
      'running',
      'active_running',
      'started',
      'starting',
      'processing',
      'retrying',
      'aborting',
      'canceling',
      'cancelling',
    ],
  ],
  [
    { meaning: 'waiting', final: false },
    [
      'queued',
      'pending',
      'waiting',
      'scheduled',
      'new',
      'created',
      'accepted',
      'submitted',
      'initialising',
      'initializing',
    ],
  ],
  [{ meaning: 'stopped', final: true }, ['abort', 'aborted', 'cancelled', 'canceled', 'skipped', 'stopped']],
  [{ meaning: 'stopped', final: false }, ['paused', 'suspended', 'disabled', 'inactive']],
];

/** Words that end a task with a qualification: `completed_with_warnings`, `failed_partially`. */
const PREFIXES: [Entry, string[]][] = [
  [{ meaning: 'warning', final: true }, ['completed_', 'complete_', 'finished_', 'succeeded_', 'partial']],
  [{ meaning: 'failed', final: true }, ['failed_']],
];

const BY_WORD = new Map<string, Entry>(
  VOCABULARY.flatMap(([entry, words]) => words.map((word) => [word, entry] as const)),
);

/** `In Progress`, `in-progress` and `IN_PROGRESS` all become `in_progress`. */
export function normaliseStatus(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function entryOf(word: string): Entry | undefined {
  const normal = normaliseStatus(word);
  return (
    BY_WORD.get(normal) ?? PREFIXES.find(([, prefixes]) => prefixes.some((prefix) => normal.startsWith(prefix)))?.[0]
  );
}

export function statusMeaning(word: string): StatusMeaning {
  return entryOf(word)?.meaning ?? 'unknown';
}

/** Whether a task in this state has ended; unknown words have not, as far as dpx can tell. */
export function isFinalStatus(word: string): boolean {
  return entryOf(word)?.final ?? false;
}

/** Whether the word is one a task passes through on its way (queued, running), as opposed to an end or a standing state. */
export function isPassingStatus(word: string): boolean {
  const meaning = statusMeaning(word);
  return meaning === 'running' || meaning === 'waiting';
}

/** Field names that hold a state, whose values are read by this vocabulary. */
export function isStatusField(name: string): boolean {
  return /(^|[_.\-])(status|state|health|severity|phase|result|outcome)$/i.test(name) || /^(status|state)/i.test(name);
}
