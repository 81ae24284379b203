// Exit codes that are not an error's (errors carry theirs: 1 API, 2 usage, 3 network or protocol, 4
// safety; see src/api/errors.ts).

/** `replay` and `diff` with --exit-code: the run went well and found differences. */
export const DIFFERENCES_FOUND = 5;

/** A run interrupted by Ctrl-C, as shells expect (128 + SIGINT). */
export const INTERRUPTED = 130;

/** `call --wait`: the followed task failed or was aborted. */
export const TASK_FAILED = 6;
