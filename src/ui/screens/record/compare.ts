// `d` on a record: what to compare it with — another version of its resource, another unit, or the same
// record through another profile — and the diff screen on the choice.
import { directoryOf } from '../../../api/fanout/unit-names.js';
import { findResource } from '../../../api/hal/catalog.js';
import type { RecordSide } from '../../../api/case/compare.js';
import { recordId } from '../../../api/hal/records.js';
import type { Choice } from '../../components/Choices.js';
import { noticeOf } from '../../nav/problems.js';
import type { ScreenContext } from '../../nav/screen.js';
import type { RecordState } from './state.js';

type Ctx = ScreenContext<RecordState>;

function unitLabel(ctx: Ctx, ou: string | undefined): string {
  return ou ? (ctx.services.unitName(ctx.state.origin.connection, ou) ?? ou) : 'no unit';
}

/** Opens the choice of what to compare the record with, then the diff. */
export async function compareWith(ctx: Ctx): Promise<void> {
  const { origin, resource, version, record } = ctx.state;
  const id = recordId(record);
  if (id === undefined) return ctx.nav.notify('this record has no id to read it again by');
  const { connection } = origin;
  const here = (label: string, session = connection.session): RecordSide => ({
    label,
    session,
    version,
    ou: origin.ou ?? null,
  });
  const open = (left: RecordSide, right: RecordSide) =>
    ctx.nav.open('diff', { resource, id, first: left, second: right });

  const catalog = ctx.services.catalogOf(connection);
  const versions = (catalog && findResource(catalog, resource)?.versions.map((v) => v.version)) ?? [];
  const units = await ctx.services.units(connection).catch(() => undefined);
  await ctx.services.refreshConfig().catch(() => undefined);
  const choices: Choice[] = [
    ...versions
      .filter((other) => other !== version)
      .map((other) => ({
        label: `version ${other}`,
        detail: `${resource} ${id} in ${version} and in ${other}`,
        run: () => open(here(version), { ...here(other), version: other }),
      })),
    ...(units ?? [])
      .filter((unit) => unit.id !== origin.ou)
      .map((unit) => {
        // Units named alike are told apart by the end of their path.
        const name = directoryOf(units!).label(unit.id);
        return {
          label: `unit ${name}`,
          detail: `${unitLabel(ctx, origin.ou)} and ${name} (${unit.id})`,
          run: () => open(here(unitLabel(ctx, origin.ou)), { ...here(name), ou: unit.id }),
        };
      }),
    ...(origin.ou
      ? [
          {
            label: 'unit none',
            detail: "in its unit and with no unit (the token's whole scope)",
            run: () => open(here(unitLabel(ctx, origin.ou)), { ...here('no unit'), ou: null }),
          },
        ]
      : []),
    ...(connection.offline
      ? []
      : ctx.services
          .profileChoices()
          .filter((choice) => choice.name !== connection.profile)
          .map((choice) => ({
            label: `profile ${choice.name}`,
            detail: `${connection.session.baseUrl} and ${choice.baseUrl}`,
            run: () => {
              void ctx.services.profiles?.connect(choice.name).then(
                (other) =>
                  open(here(connection.profile ?? 'here'), { label: choice.name, session: other.session, version }),
                (error: unknown) => ctx.nav.notify(noticeOf(`cannot reach profile ${choice.name}`, error)),
              );
            },
          }))),
  ];
  ctx.nav.open('choose', { title: `compare ${resource} ${id} with …`, entries: choices });
}
