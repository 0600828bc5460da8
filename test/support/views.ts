import type { Button, KnownBlock } from '@slack/types';

/** Every `text` string in a block tree: what a user could read. */
export const textsOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  return [
    ...(typeof record.text === 'string' ? [record.text] : []),
    ...Object.values(record).flatMap(textsOf),
  ];
};

export const buttonsOf = (blocks: KnownBlock[]): Button[] =>
  blocks.flatMap((block) =>
    block.type === 'actions'
      ? block.elements.filter((element): element is Button => element.type === 'button')
      : [],
  );
