// Each command of a case answered again from the case alone: its recorded command line run in process
// as `dpx --offline CASE <command> -o json` (an x-ray also `-o dot`, for its picture). The offline
// machinery answers it in its recorded unit and at its recorded time, from the recorded responses only:
// nothing is sent and no token is read, and the answer is the one the command printed then.

import { Writable } from 'node:stream';
import type { CaseSummary, CommandSummary } from '../../../api/case/summary.js';
import type { CommandLine, RunArgv } from '../command.js';
import type { CliIO } from '../../io.js';
import { CASE_PAGE_VARIABLE } from '../../options/shared.js';

export interface RecordedAnswer {
  command: CommandSummary;
  /** The command word (`count`, `list`, `xray` …), when the page holds a dpx command line. */
  word?: string;
  /** The answer as `-o json` prints it. */
  json?: unknown;
  /** An x-ray's Graphviz text. */
  dot?: string;
  /** What the command said on stderr (the window's field, how many requests …). */
  notes: string[];
  /** Why the case could not answer it again. */
  error?: string;
}

/** Options that say where, how and into what a command ran, not what it asked: the case says where now. */
const NOT_ASKED_AGAIN = new Set([
  'trail',
  'offline',
  'demo',
  'profile',
  'base-url',
  'token-file',
  'output',
  'proxy',
  'ca-file',
  'proxy-ca-file',
  'trust-origin',
  'timeout',
  'concurrency',
  'rate',
  'read-only',
  'allow-writes',
  'help',
]);
/** Commands whose answer is read, not a change: only these are asked again. */
const READS = new Set(['list', 'count', 'xray', 'call', 'resources', 'operations', 'whoami']);

export async function recordedAnswers(
  file: string,
  summary: CaseSummary,
  line: CommandLine,
  io: CliIO,
  ouHeader?: string,
): Promise<RecordedAnswer[]> {
  const answers: RecordedAnswer[] = [];
  for (const command of summary.commands) {
    // A browser's page: each command its requests amount to, answered as a command of its own. Its page
    // is a browser's, with no control plane or unit of dpx's, so the command is answered from the case as a whole.
    const each = command.derived?.map((argv) => {
      const { page: _browserPage, ...rest } = command;
      return { ...rest, title: ['dpx', ...argv].join(' '), argv };
    }) ?? [command];
    for (const one of each) answers.push(await answerOf(file, one, line, io, ouHeader));
  }
  return answers;
}

async function answerOf(
  file: string,
  command: CommandSummary,
  line: CommandLine,
  io: CliIO,
  ouHeader?: string,
): Promise<RecordedAnswer> {
  if (command.argv === undefined)
    return {
      command,
      notes: [],
      error: 'not a dpx command (a page of another tool): its requests are in the case, but no command line to answer',
    };
  let word: string;
  let argv: string[];
  try {
    word = line.parse(command.argv).command;
    argv = [
      '--offline',
      file,
      ...(ouHeader === undefined ? [] : ['--ou-header', ouHeader]),
      ...line.withoutOptions(command.argv, NOT_ASKED_AGAIN),
    ];
  } catch (error) {
    return { command, notes: [], error: `its command line cannot be read: ${(error as Error).message}` };
  }
  if (!READS.has(word)) return { command, word, notes: [], error: `\`dpx ${word}\` is not asked again for a report` };
  // Each section answers as its own page: its control plane, its unit and its time, whatever else the case holds.
  const env = command.page === undefined ? io.env : { ...io.env, [CASE_PAGE_VARIABLE]: command.page };
  const asJson = await runCaptured(line.run, [...argv, '-o', 'json'], { ...io, env });
  const answer: RecordedAnswer = { command, word, notes: asJson.notes };
  if (asJson.code !== 0 && asJson.stdout.trim() === '')
    return { ...answer, error: plainError(asJson.notes, asJson.code) };
  try {
    answer.json = JSON.parse(asJson.stdout);
  } catch {
    return { ...answer, error: 'its answer was not one JSON document' };
  }
  if (word === 'xray') answer.dot = (await runCaptured(line.run, [...argv, '-o', 'dot'], { ...io, env })).stdout;
  return answer;
}

async function runCaptured(
  run: RunArgv,
  argv: string[],
  io: CliIO,
): Promise<{ code: number; stdout: string; notes: string[] }> {
  const stdout = collected();
  const stderr = collected();
  const code = await run(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: offlineEnv(io.env),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  return {
    code,
    stdout: stdout.text(),
    notes: stderr
      .text()
      .split('\n')
      .filter((line) => line.trim() !== ''),
  };
}

/** The environment less what points at a control plane or holds a token: offline, the case is the control plane. */
function offlineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !name.startsWith('DPX_') || name === 'DPX_CONFIG' || name === CASE_PAGE_VARIABLE,
    ),
  );
}

/** Why a command could not be answered, in one line: its error's, without the hint that lists what the case holds. */
function plainError(notes: readonly string[], code: number): string {
  const error = notes.find((line) => line.startsWith('error: '));
  return error === undefined ? `exit ${code}` : error.slice('error: '.length);
}

function collected(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
