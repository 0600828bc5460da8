import { describe, expect, it } from 'vitest';
import { blockKitViolations, viewViolations } from '../../../../local/fake-slack/block-kit-check.ts';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (value: string, text = `Option ${value}`) => ({ text: plain(text), value });
const options = (count: number) => Array.from({ length: count }, (_, index) => option(String(index)));
const input = (element: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'input',
  label: plain('Field'),
  element: { action_id: 'value', ...element },
  ...extra,
});
const modal = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: plain('Search events'),
  submit: plain('Search'),
  close: plain('Cancel'),
  blocks,
  ...extra,
});

describe('viewViolations for modals', () => {
  it('accepts a modal with every kind of input Slack allows', () => {
    // Prepare
    const view = modal([
      input({ type: 'plain_text_input', multiline: true, max_length: 200, initial_value: 'fintech' }),
      input({ type: 'static_select', options: options(100), initial_option: option('1') }, { block_id: 'a' }),
      input({ type: 'multi_static_select', option_groups: [{ label: plain('G'), options: options(3) }] }),
      input({ type: 'datepicker', initial_date: '2027-02-28' }, { block_id: 'b' }),
      input({ type: 'timepicker', initial_time: '09:30' }, { block_id: 'c' }),
      input({ type: 'checkboxes', options: options(10) }, { block_id: 'd' }),
      input({ type: 'radio_buttons', options: options(2) }, { block_id: 'e' }),
      input({ type: 'conversations_select', default_to_current_conversation: true }, { block_id: 'f' }),
      input({ type: 'channels_select' }, { block_id: 'g' }),
    ]);

    // Act
    const problems = viewViolations('modal', view);

    // Assess
    expect(problems).toEqual([]);
  });

  it('requires plain_text for the title, submit and close, and at most 24 characters', () => {
    // Act
    const problems = viewViolations(
      'modal',
      modal([], { title: { type: 'mrkdwn', text: '*Search*' }, close: plain('x'.repeat(25)) }),
    );

    // Assess
    expect(problems).toEqual(['modal title must be plain_text', 'modal close over 24']);
  });

  it('names an element that cannot be in an input block', () => {
    // Act
    const problems = viewViolations('modal', modal([input({ type: 'button', text: plain('Go') })]));

    // Assess
    expect(problems).toEqual(['block 1: button cannot be in an input block']);
  });

  it('refuses a datepicker date or a timepicker time in another format', () => {
    // Act
    const problems = viewViolations(
      'modal',
      modal([
        input({ type: 'datepicker', initial_date: '2027/01/31' }, { block_id: 'a' }),
        input({ type: 'datepicker', initial_date: '2027-13-01' }, { block_id: 'b' }),
        input({ type: 'timepicker', initial_time: '9:30' }, { block_id: 'c' }),
      ]),
    );

    // Assess
    expect(problems).toEqual([
      'block 1: datepicker initial_date must be YYYY-MM-DD',
      'block 2: datepicker initial_date must be YYYY-MM-DD',
      'block 3: timepicker initial_time must be HH:mm',
    ]);
  });

  it('counts options: 100 for a select, 10 for checkboxes and radio buttons, and none is not enough', () => {
    // Act
    const problems = viewViolations(
      'modal',
      modal([
        input({ type: 'static_select', options: options(101) }, { block_id: 'a' }),
        input({ type: 'checkboxes', options: options(11) }, { block_id: 'b' }),
        input({ type: 'radio_buttons', options: [] }, { block_id: 'c' }),
        input({ type: 'static_select', options: [option('x', 'y'.repeat(76))] }, { block_id: 'd' }),
      ]),
    );

    // Assess
    expect(problems).toEqual([
      'block 1: static_select has 101 options (max 100)',
      'block 2: checkboxes has 11 options (max 10)',
      'block 3: radio_buttons needs options',
      'block 4: option text over 75',
    ]);
  });

  it('finds block ids used twice and action ids used twice in one block', () => {
    // Prepare
    const button = { type: 'button', text: plain('Go'), action_id: 'go' };

    // Act
    const problems = viewViolations(
      'modal',
      modal([
        input({ type: 'plain_text_input' }, { block_id: 'same' }),
        input({ type: 'plain_text_input' }, { block_id: 'same' }),
        { type: 'actions', elements: [button, button] },
      ]),
    );

    // Assess
    expect(problems).toEqual(['block 2: duplicate block_id same', 'block 3: duplicate action_id go']);
  });

  it('wants a submit button when there are inputs, a label on each, and text inputs within 3000', () => {
    // Act
    const problems = viewViolations(
      'modal',
      modal([input({ type: 'plain_text_input', max_length: 3001 }, { label: plain('') })], {
        submit: undefined,
      }),
    );

    // Assess
    expect(problems).toEqual([
      'modal with inputs needs a submit button',
      'block 1: input needs a label',
      'block 1: plain_text_input lengths over 3000',
    ]);
  });
});

describe('viewViolations for Home tabs', () => {
  it('allows 100 blocks but not 101, and checks the elements in them', () => {
    // Prepare
    const section = { type: 'section', text: { type: 'mrkdwn', text: 'x' } };
    const select = { type: 'static_select', action_id: 'pick', options: options(101) };

    // Act
    const full = viewViolations('home', { type: 'home', blocks: Array.from({ length: 100 }, () => section) });
    const over = viewViolations('home', {
      type: 'home',
      blocks: [...Array.from({ length: 100 }, () => section), { type: 'actions', elements: [select] }],
    });

    // Assess
    expect(full).toEqual([]);
    expect(over).toEqual(['101 blocks (max 100)', 'block 101: static_select has 101 options (max 100)']);
  });
});

describe('blockKitViolations for messages', () => {
  it('checks a section accessory as an element', () => {
    // Act
    const problems = blockKitViolations('text', [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Pick' },
        accessory: { type: 'overflow', action_id: 'more', options: options(6) },
      },
    ]);

    // Assess
    expect(problems).toEqual(['block 1: overflow has 6 options (max 5)']);
  });
});
