// The command line's side of asking several units and control planes at once: one line of progress on a
// terminal while the answers come in, and how a scope is named.

import type { SourceCost } from '../api/fanout/across.js';
import type { ScopeContext, Source } from '../api/fanout/scopes.js';
import { formatCount } from '../text/cells.js';
import type { OutputStream } from './io.js';
import { Progress } from './progress.js';

/** "units 12/203 · requests 340 · 429s 2 (waited 2.0 s)", redrawn on a terminal while a run goes on. */
export class FanOutProgress {
  private units = 0;
  private done = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  private constructor(
    private readonly progress: Progress,
    private readonly sources: readonly Source[],
    private readonly extra: () => string | undefined,
  ) {
    // Redrawn on a clock as well: while a 429 pauses a control plane, nothing else would move the line.
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  static forStream(
    stream: OutputStream,
    sources: readonly Source[],
    extra: () => string | undefined = () => undefined,
  ): FanOutProgress | undefined {
    const progress = Progress.forStream(stream);
    return progress ? new FanOutProgress(progress, sources, extra) : undefined;
  }

  planned(units: number): void {
    this.units = units;
    this.draw();
  }

  unitDone(): void {
    this.done += 1;
    this.draw();
  }

  /** Clears the line, so that a message can be written; the next draw brings it back. */
  clear(): void {
    this.progress.clear();
  }

  stop(): void {
    clearInterval(this.timer);
    this.progress.clear();
  }

  private draw(): void {
    this.progress.show(fanOutText(this.done, this.units, this.sources, this.extra()));
  }
}

export function fanOutText(done: number, units: number, sources: readonly Source[], extra?: string): string {
  let requests = 0;
  let limited = 0;
  let pausedMs = 0;
  for (const { session } of sources) {
    const traffic = session.traffic;
    requests += traffic.requests;
    limited += traffic.rateLimited;
    pausedMs += traffic.pausedMs;
  }
  const parts = [`units ${formatCount(done)}/${formatCount(units)}`];
  if (extra !== undefined) parts.push(extra);
  parts.push(
    `requests ${formatCount(requests)}`,
    `429s ${formatCount(limited)}${limited > 0 ? ` (waited ${(pausedMs / 1000).toFixed(1)} s)` : ''}`,
  );
  return parts.join(' · ');
}

/** A source as stderr names it: its profile (else its control plane), and its unit by name and id. */
export function describeScope(context: ScopeContext): string {
  const plane = context.profile ?? context.base_url;
  if (context.ou === null) return plane;
  return context.ou_name !== null && context.ou_name !== context.ou
    ? `${plane} ${context.ou_name} (${context.ou})`
    : `${plane} ${context.ou}`;
}

/**
 * The line that ends a run over several profiles, one per profile: "eu-west: 538 records, 17 requests"
 * (and "failed" where some of it could not be read).
 */
export function costLine({ source, records, requests, failed }: SourceCost): string {
  return `${source.profile ?? source.session.baseUrl}: ${formatCount(records)} ${records === 1 ? 'record' : 'records'}, ${formatCount(requests)} ${requests === 1 ? 'request' : 'requests'}${failed ? ' (failed: see the error above)' : ''}`;
}
