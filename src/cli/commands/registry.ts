// Every command of dpx, in the order `dpx --help` lists them: its spec and how its run function is
// loaded. Parsing (args.ts), help (help.ts), completion (completion/complete.ts) and the dispatch
// (run.ts) all read this list. Adding a command is its folder and one line here.

import { HELP, local, plane, type Command } from './command.js';
import { spec as call } from './call/spec.js';
import { spec as caseSpec } from './case/spec.js';
import { spec as completion } from './completion/spec.js';
import { spec as count } from './count/spec.js';
import { spec as demo } from './demo/spec.js';
import { spec as diff } from './diff/spec.js';
import { spec as explorer } from './explorer/spec.js';
import { spec as list } from './list/spec.js';
import { spec as operations } from './operations/spec.js';
import { spec as profile } from './profile/spec.js';
import { spec as replay } from './replay/spec.js';
import { spec as report } from './report/spec.js';
import { spec as resources } from './resources/spec.js';
import { spec as view } from './view/spec.js';
import { spec as whoami } from './whoami/spec.js';
import { spec as xray } from './xray/spec.js';
// list and count, what scripts run most, and the small reads of the index and the token start with the
// command line from V8's code cache (src/cli/code-cache.ts): imported with it, not later, since the
// bundle's modules would cost them ≈ 10 ms more. Every other command is imported when asked for.
import * as countRun from './count/run.js';
import * as listRun from './list/run.js';
import * as operationsRun from './operations/run.js';
import * as resourcesRun from './resources/run.js';
import * as whoamiRun from './whoami/run.js';

export const COMMANDS = {
  explorer: plane(explorer, () => import('./explorer/run.js')),
  help: HELP,
  resources: plane(resources, async () => resourcesRun),
  operations: plane(operations, async () => operationsRun),
  list: plane(list, async () => listRun),
  count: plane(count, async () => countRun),
  call: plane(call, () => import('./call/run.js')),
  xray: plane(xray, () => import('./xray/run.js')),
  replay: plane(replay, () => import('./replay/run.js')),
  case: local(caseSpec, () => import('./case/run.js')),
  report: local(report, () => import('./report/run.js')),
  diff: plane(diff, () => import('./diff/run.js')),
  whoami: plane(whoami, async () => whoamiRun),
  profile: local(profile, () => import('./profile/run.js')),
  demo: local(demo, () => import('./demo/run.js')),
  completion: local(completion, () => import('./completion/run.js')),
  view: local(view, () => import('./view/run.js')),
} satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;

/** The words that name a command (the explorer has none). */
export const COMMAND_WORDS = (Object.keys(COMMANDS) as CommandName[]).filter(
  (name): name is Exclude<CommandName, 'explorer'> => name !== 'explorer',
);
