import type { Button, ConfirmationDialog, KnownBlock, SectionBlock, TextObject } from '@slack/types';
import { type BotText, botText, escapeMrkdwn, mk, type Mrkdwn, trimMrkdwn, truncate } from './mrkdwn.ts';
import type { SlackMessage } from './types.ts';

/** Block Kit limits that Slack enforces (it rejects the whole message with `invalid_blocks` otherwise). */
export const LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  contextText: 3000,
  contextElements: 10,
  headerText: 150,
  fieldsPerSection: 10,
  fieldText: 2000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** Top-level `text`: Slack accepts far more, but a notification only needs the gist. */
  fallbackText: 3000,
} as const;

/** `…and 12 more` (with an optional noun: `…and 12 more exhibitors`). */
export function andMore(count: number, noun?: string): Mrkdwn {
  return mk`…and ${escapeMrkdwn(count.toLocaleString('en-US'))} more${noun ? escapeMrkdwn(` ${noun}`) : ''}`;
}

/**
 * Keeps at most `budget` row blocks; when rows are left out, the last kept slot becomes a context line
 * `…and N more` so the reader knows.
 */
export function capRows(rows: readonly KnownBlock[], budget: number, noun?: string): KnownBlock[] {
  if (rows.length <= budget) return [...rows];
  const kept = rows.slice(0, Math.max(0, budget - 1));
  return [...kept, moreNote(rows.length - kept.length, noun)];
}

/**
 * Lines packed into as few section blocks as fit (each within the section text limit), at most
 * `maxBlocks` of them; lines left out are counted in a final `…and N more` line.
 */
export function linesToSections(lines: readonly Mrkdwn[], maxBlocks: number, noun?: string): KnownBlock[] {
  const chunks: Mrkdwn[][] = [];
  let current: Mrkdwn[] = [];
  let length = 0;
  for (const line of lines) {
    const fitted = truncate(line, LIMITS.sectionText);
    if (current.length > 0 && length + 1 + fitted.length > LIMITS.sectionText) {
      chunks.push(current);
      current = [];
      length = 0;
    }
    length += (current.length > 0 ? 1 : 0) + fitted.length;
    current.push(fitted);
  }
  if (current.length > 0) chunks.push(current);
  if (chunks.length <= maxBlocks) return chunks.map(sectionOf);
  const kept = chunks.slice(0, Math.max(0, maxBlocks - 1));
  const keptLines = kept.reduce((sum, chunk) => sum + chunk.length, 0);
  return [...kept.map(sectionOf), moreNote(lines.length - keptLines, noun)];
}

const sectionOf = (lines: readonly string[]): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: lines.join('\n') },
});

function moreNote(count: number, noun?: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: andMore(count, noun) }] };
}

function fitText<T extends TextObject>(text: T, max: number): T {
  return text.text.length <= max ? text : { ...text, text: truncate(text.text, max) };
}

function fitConfirm(confirm: ConfirmationDialog): ConfirmationDialog {
  return {
    ...confirm,
    ...(confirm.title ? { title: fitText(confirm.title, LIMITS.confirmTitle) } : {}),
    ...(confirm.text ? { text: fitText(confirm.text, LIMITS.confirmText) } : {}),
    ...(confirm.confirm ? { confirm: fitText(confirm.confirm, LIMITS.confirmButton) } : {}),
    ...(confirm.deny ? { deny: fitText(confirm.deny, LIMITS.confirmButton) } : {}),
  };
}

/** A button whose value or URL is too long is dropped: a cut JSON value could not be parsed back. */
function fitButton(button: Button): Button | undefined {
  if (button.value !== undefined && button.value.length > LIMITS.buttonValue) return undefined;
  if (button.url !== undefined && button.url.length > LIMITS.buttonUrl) return undefined;
  return {
    ...button,
    text: fitText(button.text, LIMITS.buttonText),
    ...(button.confirm ? { confirm: fitConfirm(button.confirm) } : {}),
  };
}

function fitSection(block: SectionBlock): SectionBlock | undefined {
  const fitted: SectionBlock = { ...block };
  if (block.text) fitted.text = fitText(block.text, LIMITS.sectionText);
  if (block.fields) {
    const fields = block.fields.map((field) => fitText(field, LIMITS.fieldText));
    if (fields.length > LIMITS.fieldsPerSection) {
      const kept = fields.slice(0, LIMITS.fieldsPerSection - 1);
      kept.push({ type: 'mrkdwn', text: andMore(fields.length - kept.length) });
      fitted.fields = kept;
    } else {
      fitted.fields = fields;
    }
  }
  if (block.accessory?.type === 'button') {
    const accessory = fitButton(block.accessory);
    if (accessory) fitted.accessory = accessory;
    else delete fitted.accessory;
  }
  if (!fitted.text && (!fitted.fields || fitted.fields.length === 0)) return undefined;
  return fitted;
}

function fitBlock(block: KnownBlock): KnownBlock | undefined {
  switch (block.type) {
    case 'header':
      return { ...block, text: fitText(block.text, LIMITS.headerText) };
    case 'section':
      return fitSection(block);
    case 'context': {
      const elements = block.elements
        .slice(0, LIMITS.contextElements)
        .map((element) =>
          element.type === 'mrkdwn' || element.type === 'plain_text'
            ? fitText(element, LIMITS.contextText)
            : element,
        );
      return elements.length > 0 ? { ...block, elements } : undefined;
    }
    case 'actions': {
      const elements = block.elements
        .map((element) => (element.type === 'button' ? fitButton(element) : element))
        .filter((element) => element !== undefined)
        .slice(0, LIMITS.actionsElements);
      return elements.length > 0 ? { ...block, elements } : undefined;
    }
    default:
      return block;
  }
}

const isFooter = (block: KnownBlock) =>
  block.type === 'actions' || block.type === 'context' || block.type === 'divider';

/** Over 50 blocks: keep the head and the footer (buttons, paging, preview line), count the rest. */
function capBlocks(blocks: KnownBlock[]): KnownBlock[] {
  if (blocks.length <= LIMITS.blocksPerMessage) return blocks;
  let footerStart = blocks.length;
  while (footerStart > 0 && blocks.length - footerStart < 4) {
    const previous = blocks[footerStart - 1];
    if (!previous || !isFooter(previous)) break;
    footerStart -= 1;
  }
  const footer = blocks.slice(footerStart);
  const headCount = LIMITS.blocksPerMessage - footer.length - 1;
  const omitted = footerStart - headCount;
  return [...blocks.slice(0, headCount), moreNote(omitted), ...footer];
}

/**
 * The last step of every builder: whatever the data, the message stays within Block Kit's limits.
 * Texts are cut with `…`, overflowing rows are counted (`…and N more`), oversized buttons are dropped.
 * The notification `text` is mrkdwn too: data in it is escaped like data in a block.
 */
export function fitToLimits<T extends string>(message: {
  text: BotText<T>;
  blocks: KnownBlock[];
}): SlackMessage {
  const blocks = message.blocks.map(fitBlock).filter((block) => block !== undefined);
  const given = trimMrkdwn(botText(message.text));
  const text = truncate(given || mk`eventbot`, LIMITS.fallbackText);
  return { text, blocks: capBlocks(blocks) };
}
