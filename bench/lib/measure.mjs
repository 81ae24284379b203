// Running a program and measuring it: wall time, and peak resident memory from /usr/bin/time -v when
// the machine has it, else from /proc/<pid>/status (VmHWM) polled while it runs.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

/** Peak RSS so far of a live process, in KiB, or undefined once it is gone. */
export function peakRssKiB(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time a live process has used so far (user + system), in clock ticks of `ticksPerSecond`, or
 * undefined once it is gone.
 */
export function cpuTicks(pid) {
  try {
    // The command name, in parentheses, may hold spaces; the fields after it are fixed.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * The machine's CPU time so far, all cores, in clock ticks: the total and the part the hypervisor gave
 * to other guests (steal), from /proc/stat; undefined where there is none.
 */
export function machineTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((sum, ticks) => sum + ticks, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time the host took for other guests since `since` (machineTicks), in %. */
export function stolenPercent(since) {
  const now = machineTicks();
  if (!since || !now || now.total === since.total) return undefined;
  return ((now.steal - since.steal) / (now.total - since.total)) * 100;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ). */
export const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * Runs `node <args>` with `env`; stdout is counted (bytes and lines) and dropped, or kept as `stdout`
 * with `{ keepStdout: true }`. Resolves with the wall time in ms, the exit code, the output counts,
 * stderr, the peak RSS in MiB and the CPU time in ms (undefined without GNU time).
 */
export function runNode(args, env, { keepStdout = false } = {}) {
  const command = hasGnuTime ? GNU_TIME : process.execPath;
  const argv = hasGnuTime ? ['-v', process.execPath, ...args] : args;
  const started = performance.now();
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let bytes = 0;
  let lines = 0;
  let stderr = '';
  let stdout = '';
  let polledKiB = 0;
  child.stdout.on('data', (chunk) => {
    bytes += chunk.length;
    if (keepStdout) stdout += chunk;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const poll = hasGnuTime
    ? undefined
    : setInterval(() => {
        polledKiB = Math.max(polledKiB, peakRssKiB(child.pid) ?? 0);
      }, 20);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (poll) clearInterval(poll);
      const reported = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const peakKiB = reported ? Number(reported[1]) : polledKiB;
      // CPU time, user and system, where GNU time reports it.
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpuMs = user && system ? (Number(user[1]) + Number(system[1])) * 1000 : undefined;
      const ownStderr = hasGnuTime ? stderr.replace(/\n?\tCommand being timed:[\s\S]*$/, '') : stderr;
      resolve({
        ms,
        code,
        bytes,
        lines,
        stderr: ownStderr,
        peakMiB: peakKiB / 1024,
        cpuMs,
        ...(keepStdout ? { stdout } : {}),
      });
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const memorySource = hasGnuTime ? '/usr/bin/time -v' : '/proc/<pid>/status VmHWM';
