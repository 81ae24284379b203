// The pieces every picker draws: a line being typed, and a window of choices with one selected.
import { Text } from 'ink';
import { Tinted } from './theme.js';

/** One thing a picker offers: what it shows and matches against, a few words more, and what choosing it does. */
export interface Choice {
  label: string;
  detail?: string;
  run(): void;
}

export function Choices<T>({
  items,
  cursor,
  height,
  render,
}: {
  items: T[];
  cursor: number;
  height: number;
  render: (item: T, selected: boolean) => string;
}) {
  const top = Math.max(0, Math.min(cursor - Math.floor(height / 2), items.length - height));
  return (
    <>
      {items.slice(top, top + height).map((item, i) => {
        const selected = top + i === cursor;
        return (
          <Text key={top + i} wrap="truncate">
            <Tinted inverse={selected} bold={selected}>
              {selected ? '› ' : '  '}
              {render(item, selected)}
            </Tinted>
          </Text>
        );
      })}
    </>
  );
}

export function InputLine({ prompt, value }: { prompt: string; value: string }) {
  return (
    <Text wrap="truncate">
      <Tinted tone="info" bold>
        {prompt}
      </Tinted>
      {value}
      <Tinted tone="info">▏</Tinted>
    </Text>
  );
}
