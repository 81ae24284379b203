import worldJson from '../../fixtures/demo/world.json' with { type: 'json' };
import { Random } from './random.js';
import type { StoredRecord } from './store.js';

/** The generators' inputs: names, the OU tree, vocabularies with weights (fixtures/demo/world.json). */
export const world = worldJson;

export interface UnitDef {
  id: string;
  name: string;
  kind: string;
  parent_id: string | null;
}

const FIXED_UNITS: readonly UnitDef[] = world.organizational_units;
const FIXED_PLACEABLE = FIXED_UNITS.filter((unit) => unit.kind !== 'root').length;

/**
 * The organizational-unit tree of a region: the fixture's, or with `tenants` its root and that many
 * generated tenants (a managed service provider's customers), each with 1–3 levels of sub-units below
 * it. Drawn from a generator of its own, so a tree is the same whatever else the seed makes.
 */
export function unitTree(seed: number, tenants?: number): readonly UnitDef[] {
  if (tenants === undefined) return FIXED_UNITS;
  const rng = new Random(seed ^ 0x7e_4a_47);
  const words = world.generated_units;
  const root = FIXED_UNITS.find((unit) => unit.kind === 'root')!;
  const units: UnitDef[] = [root];
  const tenantNames = new Set<string>();
  for (let t = 0; t < tenants; t++) {
    const tenant: UnitDef = {
      id: rng.uuid(),
      name: uniqueName(`${rng.pick(words.tenant_words)} ${rng.pick(words.tenant_suffixes)}`, tenantNames),
      kind: 'tenant',
      parent_id: root.id,
    };
    units.push(tenant);
    const levels = rng.int(1, 3);
    const grow = (parent: UnitDef, level: number): void => {
      const siblings = new Set<string>();
      for (let c = rng.int(1, level === 1 ? 3 : 2); c > 0; c--) {
        const unit: UnitDef = {
          id: rng.uuid(),
          name: uniqueName(rng.pick(words.unit_names), siblings),
          kind: 'unit',
          parent_id: parent.id,
        };
        units.push(unit);
        if (level < levels) grow(unit, level + 1);
      }
    };
    grow(tenant, 1);
  }
  return units;
}

/** `name`, or `name 2`, `name 3`… when it is taken; the name chosen is added to `taken`. */
function uniqueName(name: string, taken: Set<string>): string {
  let chosen = name;
  for (let n = 2; taken.has(chosen); n++) chosen = `${name} ${n}`;
  taken.add(chosen);
  return chosen;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type FinishedStatus = (typeof world.finished_task_statuses)[number]['status'];
type TaskKind = (typeof world.task_kinds)[number];

/** A task that is not finished at start-up, with what it will become. */
export interface PendingTask {
  task: StoredRecord;
  /** Milliseconds of virtual time until it leaves queued/scheduled; 0 when already running. */
  waitMs: number;
  /** Milliseconds of virtual time it runs from progress 0 (or its current progress) to the end. */
  runMs: number;
  outcome: FinishedStatus;
}

export interface GeneratedWorld {
  records: Record<string, StoredRecord[]>;
  pending: PendingTask[];
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

const humanised = new Map<string, string>();

/** `on_demand_restore` → `On demand restore`, computed once per identifier. */
function humanise(identifier: string): string {
  let text = humanised.get(identifier);
  if (text === undefined) {
    const words = identifier.replace(/_/g, ' ');
    text = words.charAt(0).toUpperCase() + words.slice(1);
    humanised.set(identifier, text);
  }
  return text;
}

function pushTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}

/**
 * Sorts records newest first by a numeric timestamp field. Packs age and position into one float and
 * sorts a Float64Array without a comparator: at 100,000 records a comparator sort costs most of start-up.
 */
function sortNewestFirst(records: StoredRecord[], field: string): void {
  const times = records.map((r) => r[field] as number);
  const newest = times.reduce((m, t) => (t > m ? t : m), -Infinity);
  const oldest = times.reduce((m, t) => (t < m ? t : m), Infinity);
  if ((newest - oldest + 1) * records.length >= Number.MAX_SAFE_INTEGER) {
    records.sort((a, b) => (b[field] as number) - (a[field] as number));
    return;
  }
  const keys = Float64Array.from(times, (t, i) => (newest - t) * records.length + i);
  keys.sort();
  const original = [...records];
  keys.forEach((key, position) => {
    records[position] = original[key % original.length] as StoredRecord;
  });
}

/**
 * Deterministic records for one region. Values depend only on the seed and scale; timestamps are spread
 * over the last `history_days` before `now`, so recent data exists whenever the server starts.
 */
export function generateWorld(
  seed: number,
  scale: number,
  now: number,
  tree: readonly UnitDef[] = FIXED_UNITS,
): GeneratedWorld {
  const rng = new Random(seed);
  // Data grows with the units: the fixture's tree is the yardstick of the volumes per scale.
  const perUnit = tree.filter((unit) => unit.kind !== 'root').length / FIXED_PLACEABLE;
  const volume = (name: keyof typeof world.volumes_per_scale) =>
    Math.max(1, Math.round(world.volumes_per_scale[name] * scale * perUnit));
  const historyMs = world.history_days * DAY_MS;
  const pastTime = () => now - Math.floor(rng.next() * historyMs);
  const value = <T extends { value: string; weight: number }>(items: readonly T[]) =>
    rng.weighted(items, (i) => i.weight).value;

  // Organizational units: the tree, each with its full path.
  const unitsById = new Map(tree.map((u) => [u.id, u]));
  const pathOf = (id: string | null): string => {
    const unit = id ? unitsById.get(id) : undefined;
    if (!unit) return '';
    const parent = pathOf(unit.parent_id);
    return parent ? `${parent} / ${unit.name}` : unit.name;
  };
  const units: StoredRecord[] = tree.map((u, i) => ({
    id: u.id,
    name: u.name,
    kind: u.kind,
    path: pathOf(u.id),
    parent_id: u.parent_id,
    created_timestamp: now - 400 * DAY_MS + (i % 365) * DAY_MS,
  }));
  const placeable = tree.filter((u) => u.kind !== 'root');
  const rootId = tree.find((u) => u.kind === 'root')?.id ?? '';
  const unitSlug = (id: string) => slug(unitsById.get(id)?.name ?? 'global');

  const roles: StoredRecord[] = world.roles.map(({ weight: _weight, ...role }) => ({ ...role, built_in: true }));

  // Users; the personal token's subject is the first, an administrator at the root.
  const emails = new Set<string>();
  const users: StoredRecord[] = [];
  const admin = world.people.personal_token_user;
  for (let i = 0; i < volume('users'); i++) {
    const isAdmin = i === 0;
    const first = isAdmin ? admin.first_name : rng.pick(world.people.first_names);
    const last = isAdmin ? admin.last_name : rng.pick(world.people.last_names);
    const base = `${slug(first)}.${slug(last)}`;
    let name = base;
    for (let n = 2; emails.has(name); n++) name = `${base}${n}`;
    emails.add(name);
    const email = isAdmin ? world.people.personal_token_subject : `${name}@${world.people.email_domain}`;
    const confirmed = isAdmin || rng.chance(0.9);
    users.push({
      id: rng.uuid(),
      email,
      name,
      first_name: first,
      last_name: last,
      full_name: `${first} ${last}`,
      is_confirmed: confirmed,
      is_enabled: isAdmin || rng.chance(0.93),
      role_id: isAdmin ? (world.roles[0]?.id ?? '') : rng.weighted(world.roles, (r) => r.weight).id,
      organizational_unit_id: isAdmin || rng.chance(0.05) ? rootId : rng.pick(placeable).id,
      created_timestamp: now - Math.floor(rng.next() * 365 * DAY_MS),
      last_login_timestamp: confirmed ? now - Math.floor(rng.next() * historyMs) : null,
    });
  }

  // Policies and protection groups: at least one of each per placeable unit.
  const policyTiers = ['Gold', 'Silver', 'Bronze', 'Platinum', 'Compliance'];
  const policies: StoredRecord[] = [];
  const policiesByUnit = new Map<string, StoredRecord[]>();
  for (let i = 0; i < Math.max(volume('policies'), placeable.length); i++) {
    const unit = i < placeable.length ? placeable[i] : rng.pick(placeable);
    if (!unit) continue;
    const retention = rng.pick(world.retention_days);
    const policy: StoredRecord = {
      id: rng.uuid(),
      name: `${rng.pick(policyTiers)} ${retention}d – ${unit.name}`,
      schedule: rng.pick(world.policy_schedules),
      retention_days: retention,
      immutable: rng.chance(0.3),
      enabled: rng.chance(0.95),
      organizational_unit_id: unit.id,
      created_timestamp: now - Math.floor((30 + rng.next() * 300) * DAY_MS),
    };
    policies.push(policy);
    pushTo(policiesByUnit, unit.id, policy);
  }

  const groups: StoredRecord[] = [];
  const groupPrefix = new Map<string, string>();
  for (let i = 0; i < Math.max(volume('protection-groups'), placeable.length); i++) {
    const unit = i < placeable.length ? placeable[i] : rng.pick(placeable);
    if (!unit) continue;
    const workload = rng.weighted(world.workloads, (w) => w.weight);
    const policy = rng.pick(policiesByUnit.get(unit.id) ?? policies);
    const prefix = `${workload.prefix}-${rng.pick(world.host_words)}-${unitSlug(unit.id)}`;
    const group: StoredRecord = {
      id: rng.uuid(),
      name: `${prefix}-${String(i + 1).padStart(3, '0')}`,
      source_type: workload.source_type,
      object_count: rng.int(1, 500),
      enabled: rng.chance(0.95),
      policy_id: policy.id,
      organizational_unit_id: unit.id,
      created_timestamp: now - Math.floor((31 + rng.next() * 300) * DAY_MS),
      last_backup_timestamp: now - Math.floor(rng.next() * DAY_MS),
    };
    groupPrefix.set(group.id, prefix);
    groups.push(group);
  }
  const retentionOf = new Map(policies.map((p) => [p.id, p['retention_days'] as number]));

  const backups: StoredRecord[] = [];
  const backupsByUnit = new Map<string, StoredRecord[]>();
  const backupsByGroup = new Map<string, StoredRecord[]>();
  for (let i = 0; i < volume('backups'); i++) {
    const group = rng.pick(groups);
    const created = pastTime();
    const expiry = created + (retentionOf.get(group['policy_id'] as string) ?? 30) * DAY_MS;
    const unitId = group['organizational_unit_id'] as string;
    const backup: StoredRecord = {
      id: rng.uuid(),
      object_name: `${groupPrefix.get(group.id) ?? 'object'}-${String(rng.int(1, 99)).padStart(2, '0')}`,
      backup_type: value(world.backup_types),
      status: expiry < now ? 'expired' : value(world.backup_statuses),
      size_bytes: rng.int(50, 900_000) * 1_048_576,
      storage_tier: value(world.storage_tiers),
      protection_group_id: group.id,
      organizational_unit_id: unitId,
      task_id: null,
      created_timestamp: created,
      expiry_timestamp: expiry,
    };
    backups.push(backup);
    pushTo(backupsByUnit, unitId, backup);
    pushTo(backupsByGroup, group.id, backup);
  }

  // Tasks: finished history, a few live ones, and for every unit failed restores from the last day.
  const tasks: StoredRecord[] = [];
  const pending: PendingTask[] = [];
  const failedTaskIds: string[] = [];
  const live = world.live;
  const seconds = ([min, max]: number[]) => rng.int(min ?? 0, max ?? 0) * 1000;
  const finishedStatus = () => rng.weighted(world.finished_task_statuses, (s) => s.weight).status;
  const runningOutcome = () =>
    rng.weighted(
      world.finished_task_statuses.filter((s) => s.status.startsWith('completed') || s.status === 'failed'),
      (s) => s.weight,
    ).status;
  const restoreKinds = world.task_kinds.filter((k) => k.category === 'restore');

  const makeTask = (
    kind: TaskKind,
    unitId: string,
    target: StoredRecord | undefined,
    created: number,
  ): StoredRecord => {
    const scheduled =
      kind.type.startsWith('scheduled') || kind.category === 'snapshot' || kind.category === 'replication';
    const initiator = scheduled ? 'schedule' : kind.target === null ? 'system' : 'user';
    const targetName = target ? String(target['name'] ?? target['object_name']) : unitsById.get(unitId)?.name;
    return {
      id: rng.uuid(),
      // join() builds a flat string; a template literal would keep a rope of parts per task.
      name: [humanise(kind.type), ' – ', targetName].join(''),
      category: kind.category,
      type: kind.type,
      status: 'queued',
      progress_percentage: 0,
      created_timestamp: created,
      start_timestamp: null,
      end_timestamp: null,
      organizational_unit_id: unitId,
      initiated_by_type: initiator,
      initiated_by_email: initiator === 'user' ? (rng.pick(users)['email'] as string) : null,
      protection_group_id:
        kind.target === 'protection_group'
          ? (target?.id ?? null)
          : target
            ? ((target['protection_group_id'] as string) ?? null)
            : null,
      backup_id: kind.target === 'backup' ? (target?.id ?? null) : null,
      restore_id: null,
      error_code: null,
      error_message: null,
    };
  };

  const finish = (task: StoredRecord, status: FinishedStatus, start: number, end: number) => {
    task['status'] = status;
    task['start_timestamp'] = status === 'skipped' ? null : start;
    task['end_timestamp'] = end;
    task['progress_percentage'] = status.startsWith('completed') ? 100 : status === 'skipped' ? 0 : rng.int(1, 95);
    if (status === 'failed') {
      const failure = rng.pick(world.task_failures);
      task['error_code'] = failure.code;
      task['error_message'] = failure.message;
      failedTaskIds.push(task.id);
    }
  };

  const targetFor = (kind: TaskKind): { unitId: string; target: StoredRecord | undefined } => {
    if (kind.target === 'protection_group') {
      const group = rng.pick(groups);
      return { unitId: group['organizational_unit_id'] as string, target: group };
    }
    if (kind.target === 'backup' && backups.length > 0) {
      const backup = rng.pick(backups);
      return { unitId: backup['organizational_unit_id'] as string, target: backup };
    }
    return { unitId: rng.pick(placeable).id, target: undefined };
  };

  for (const unit of placeable) {
    for (let k = 0; k < 2; k++) {
      const kind = rng.pick(restoreKinds);
      const unitBackups = backupsByUnit.get(unit.id);
      const task = makeTask(
        kind,
        unit.id,
        unitBackups ? rng.pick(unitBackups) : undefined,
        now - HOUR_MS - Math.floor(rng.next() * 22 * HOUR_MS),
      );
      const start = (task['created_timestamp'] as number) + rng.int(1, 60) * 1000;
      finish(task, 'failed', start, start + seconds(live.run_seconds));
      tasks.push(task);
    }
  }

  const taskCount = volume('tasks');
  while (tasks.length < taskCount) {
    const kind = rng.weighted(world.task_kinds, (k) => k.weight);
    const { unitId, target } = targetFor(kind);
    const roll = rng.next();
    if (roll < live.in_progress_share + live.queued_share + live.scheduled_share) {
      const task = makeTask(kind, unitId, target, now - rng.int(5, 600) * 1000);
      if (roll < live.in_progress_share) {
        task['status'] = 'in_progress';
        task['start_timestamp'] = (task['created_timestamp'] as number) + 2000;
        task['progress_percentage'] = rng.int(3, 90);
        pending.push({
          task,
          waitMs: 0,
          runMs: seconds(live.in_progress_remaining_seconds),
          outcome: runningOutcome(),
        });
      } else {
        const isScheduled = roll >= live.in_progress_share + live.queued_share;
        task['status'] = isScheduled ? 'scheduled' : 'queued';
        pending.push({
          task,
          waitMs: seconds(isScheduled ? live.scheduled_wait_seconds : live.queued_wait_seconds),
          runMs: seconds(live.run_seconds),
          outcome: runningOutcome(),
        });
      }
      tasks.push(task);
      continue;
    }
    const runMs = seconds(live.run_seconds);
    const created = Math.min(pastTime(), now - runMs - 120_000);
    const task = makeTask(kind, unitId, target, created);
    const start = created + rng.int(1, 120) * 1000;
    const status = finishedStatus();
    finish(task, status, start, start + runMs);
    if (kind.category === 'backup' && status.startsWith('completed')) {
      const produced = target ? backupsByGroup.get(target.id) : undefined;
      const backup = produced ? rng.pick(produced) : undefined;
      if (backup) {
        task['backup_id'] = backup.id;
        backup['task_id'] ??= task.id;
      }
    }
    tasks.push(task);
  }

  // Restores, each with the restore task it started (not counted in the tasks volume).
  const restores: StoredRecord[] = [];
  for (let i = 0; i < volume('restores'); i++) {
    const backup = rng.pick(backups);
    const kind = rng.pick(restoreKinds);
    const unitId = backup['organizational_unit_id'] as string;
    const runMs = seconds(live.run_seconds);
    const created = Math.min(pastTime(), now - runMs - 120_000);
    const task = makeTask(kind, unitId, backup, created);
    const start = created + rng.int(1, 30) * 1000;
    finish(task, rng.chance(live.restore_failure_share) ? 'failed' : 'completed', start, start + runMs);
    const restore: StoredRecord = {
      id: rng.uuid(),
      restore_type: value(world.restore_types),
      target: `${backup['object_name'] as string}-restored`,
      status: task['status'],
      requested_by: task['initiated_by_email'] ?? world.people.personal_token_subject,
      backup_id: backup.id,
      task_id: task.id,
      organizational_unit_id: unitId,
      created_timestamp: created,
    };
    task['restore_id'] = restore.id;
    restores.push(restore);
    tasks.push(task);
  }

  const alerts: StoredRecord[] = [];
  for (let i = 0; i < volume('alerts'); i++) {
    const kind = rng.weighted(world.alert_kinds, (a) => a.weight);
    const group = rng.pick(groups);
    alerts.push({
      id: rng.uuid(),
      severity: kind.severity,
      category: kind.category,
      message: kind.message.replace('{object}', group['name'] as string),
      status: value(world.alert_statuses),
      organizational_unit_id: group['organizational_unit_id'],
      task_id: kind.category === 'backup_failure' && failedTaskIds.length > 0 ? rng.pick(failedTaskIds) : null,
      created_timestamp: pastTime(),
    });
  }

  const targetsOfType: Record<string, StoredRecord[]> = {
    user: users,
    policy: policies,
    restore: restores,
    task: tasks,
    backup: backups,
  };
  const audit: StoredRecord[] = [];
  for (let i = 0; i < volume('audit-trails'); i++) {
    const entry = rng.weighted(world.audit_actions, (a) => a.weight);
    const user = rng.pick(users);
    const targets = targetsOfType[entry.target_type];
    const userUnit = user['organizational_unit_id'] as string;
    audit.push({
      id: rng.uuid(),
      timestamp: pastTime(),
      user_email: user['email'],
      action: entry.action,
      outcome: entry.action.endsWith('_failed') || rng.chance(0.02) ? 'failure' : 'success',
      target_type: entry.target_type,
      target_id: entry.target_type === 'user' ? user.id : targets ? rng.pick(targets).id : rng.uuid(),
      source_ip: rng.chance(0.7)
        ? `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`
        : `203.0.113.${rng.int(1, 254)}`,
      organizational_unit_id: userUnit === rootId ? rng.pick(placeable).id : userUnit,
    });
  }

  sortNewestFirst(tasks, 'created_timestamp');
  sortNewestFirst(backups, 'created_timestamp');
  sortNewestFirst(restores, 'created_timestamp');
  sortNewestFirst(alerts, 'created_timestamp');
  sortNewestFirst(audit, 'timestamp');
  sortNewestFirst(users, 'created_timestamp');

  return {
    records: {
      'organizational-units': units,
      roles,
      users,
      policies,
      'protection-groups': groups,
      backups,
      tasks,
      restores,
      alerts,
      'audit-trails': audit,
    },
    pending,
  };
}
