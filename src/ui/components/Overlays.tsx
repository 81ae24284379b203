// Everything drawn over the current screen: palette, help, pickers, filter builder, link variables.
import { Box, Text } from 'ink';
import { expandTemplate } from '../../api/template.js';
import { helpLines } from '../keymap.js';
import type { OrgUnit, Overlay, PaletteEntry } from '../state.js';
import { fit, truncate } from '../../text/cells.js';
import { Tinted } from './theme.js';

function Choices<T>({ items, cursor, height, render }: { items: T[]; cursor: number; height: number; render: (item: T, selected: boolean) => string }) {
  const top = Math.max(0, Math.min(cursor - Math.floor(height / 2), items.length - height));
  return (
    <>
      {items.slice(top, top + height).map((item, i) => {
        const selected = top + i === cursor;
        return <Text key={top + i} wrap="truncate"><Tinted inverse={selected} bold={selected}>{selected ? '› ' : '  '}{render(item, selected)}</Tinted></Text>;
      })}
    </>
  );
}

function InputLine({ prompt, value }: { prompt: string; value: string }) {
  return <Text wrap="truncate"><Tinted tone="info" bold>{prompt}</Tinted>{value}<Tinted tone="info">▏</Tinted></Text>;
}

export function PaletteOverlay({ input, cursor, entries, height, columns }: { input: string; cursor: number; entries: PaletteEntry[]; height: number; columns: number }) {
  const width = Math.min(40, Math.max(12, ...entries.map((e) => e.label.length)));
  return (
    <Box flexDirection="column">
      <InputLine prompt=":" value={input} />
      <Tinted tone="muted">↑↓ choose · Tab completes · Enter runs · Esc closes · {entries.length} matches</Tinted>
      <Choices items={entries} cursor={cursor} height={height - 2} render={(e) => `${fit(e.label, width)}  ${truncate(e.detail ?? '', columns - width - 6)}`} />
    </Box>
  );
}

export function HelpOverlay({ top, height, columns }: { top: number; height: number; columns: number }) {
  const lines = helpLines();
  const shown = lines.slice(top, top + height - 1);
  return (
    <Box flexDirection="column">
      <Tinted bold>keys · ↑↓ scroll ({top + 1}–{top + shown.length} of {lines.length}) · Esc or ? closes</Tinted>
      {shown.map((l, i) => (
        <Text key={top + i} wrap="truncate">
          {l.heading ? <Tinted tone="info" bold>{l.text}</Tinted> : `  ${fit(l.keys, 30)} ${truncate(l.text, columns - 34)}`}
        </Text>
      ))}
    </Box>
  );
}

export function VersionOverlay({ overlay, height }: { overlay: Extract<Overlay, { kind: 'version' }>; height: number }) {
  return (
    <Box flexDirection="column">
      <Tinted bold>version of {overlay.resource} (Enter switches, Esc cancels)</Tinted>
      <Choices items={overlay.versions} cursor={overlay.cursor} height={height - 1} render={(v) => v} />
    </Box>
  );
}

/** "  Acme Corp" indented by depth in a tree; the id and child count follow in the detail. */
function unitLabel(unit: OrgUnit): string {
  return `${'  '.repeat(unit.depth)}${unit.depth > 0 ? '└ ' : ''}${unit.name}`;
}

export function OuOverlay({ overlay, choices, height, columns }: { overlay: Extract<Overlay, { kind: 'ou' }>; choices: OrgUnit[]; height: number; columns: number }) {
  const width = Math.min(44, Math.max(10, ...choices.map((u) => unitLabel(u).length)));
  const detail = (u: OrgUnit) => [u.id, overlay.tree && u.id ? `${u.children} ${u.children === 1 ? 'child' : 'children'}` : '', u.detail].filter(Boolean).join(' · ');
  const heading = overlay.loading
    ? 'loading organizational units…'
    : overlay.units
      ? `organizational unit${overlay.tree ? 's as a tree' : ''}: type a name or UUID · ↑↓ · Enter sets it · Esc cancels (${overlay.units.length} units)`
      : 'the index offers no organizational-unit list: type the OU UUID, Enter sets it';
  return (
    <Box flexDirection="column">
      <InputLine prompt="OU " value={overlay.input} />
      <Tinted tone="muted">{heading}</Tinted>
      {overlay.error ? <Tinted tone="bad">{overlay.error.status ?? ''} {overlay.error.title}</Tinted> : null}
      <Choices items={choices} cursor={overlay.cursor} height={height - 3} render={(u) => `${fit(unitLabel(u), width)}  ${truncate(detail(u), columns - width - 6)}`} />
    </Box>
  );
}

export function FilterOverlay({ overlay, choices, preview, height }: { overlay: Extract<Overlay, { kind: 'filter' }>; choices: string[]; preview: string; height: number }) {
  const step = overlay.step === 'field' ? 'field' : overlay.step === 'operator' ? `operator for ${overlay.field}` : `value for ${overlay.field} ${overlay.operator}`;
  const hint = overlay.step === 'value'
    ? 'Enter adds the condition · for times, -1d / -24h / 30m ago mean that long before now'
    : overlay.conditions.length
      ? 'Enter on "✓ apply the filter" sends it · another field adds a condition · ctrl-d drops the last'
      : 'Enter chooses · Esc cancels';
  return (
    <Box flexDirection="column">
      <Tinted bold>server-side filter · {step}</Tinted>
      {overlay.conditions.map((c, i) => <Text key={i} wrap="truncate">  {i + 1}. {c.field} {c.operator} {c.value}</Text>)}
      <InputLine prompt={`${step}: `} value={overlay.input} />
      <Text wrap="truncate"><Tinted tone="muted">filter JSON: </Tinted><Tinted tone="good">{preview || '(no condition yet)'}</Tinted></Text>
      <Tinted tone="muted">{hint}</Tinted>
      <Choices items={choices} cursor={overlay.cursor} height={Math.max(1, height - 5 - overlay.conditions.length)} render={(c) => c} />
    </Box>
  );
}

export function PromptOverlay({ overlay }: { overlay: Extract<Overlay, { kind: 'prompt' }> }) {
  return (
    <Box flexDirection="column">
      <Tinted bold>{overlay.title}</Tinted>
      <InputLine prompt="› " value={overlay.input} />
      {overlay.hint ? <Tinted tone="muted">{overlay.hint}</Tinted> : null}
    </Box>
  );
}

export function TemplateOverlay({ overlay, columns }: { overlay: Extract<Overlay, { kind: 'template' }>; columns: number }) {
  let preview: string;
  try {
    preview = expandTemplate(overlay.href, overlay.values);
  } catch (error) {
    preview = `(cannot expand: ${(error as Error).message})`;
  }
  return (
    <Box flexDirection="column">
      <Tinted bold>{overlay.title}: fill in the variables (Tab/↑↓ move · Enter next/go · Esc cancels)</Tinted>
      <Text wrap="truncate"><Tinted tone="muted">template </Tinted>{truncate(overlay.href, columns - 12)}</Text>
      {overlay.variables.map((name, i) => (
        <Text key={name} wrap="truncate">
          <Tinted inverse={i === overlay.index}>{i === overlay.index ? '› ' : '  '}{name}</Tinted> = {overlay.values[name] ?? ''}{i === overlay.index ? <Tinted tone="info">▏</Tinted> : null}
        </Text>
      ))}
      <Text wrap="truncate"><Tinted tone="muted">URL </Tinted><Tinted tone="good">{truncate(preview, columns - 6)}</Tinted></Text>
    </Box>
  );
}
