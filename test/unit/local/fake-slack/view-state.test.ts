import { describe, expect, it } from 'vitest';
import { missingRequired, responseUrlFields, stateValues } from '../../../../local/fake-slack/view-state.ts';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (value: string) => ({ text: plain(`Option ${value}`), value });
const input = (blockId: string, element: Record<string, unknown>, optional = false) => ({
  type: 'input',
  block_id: blockId,
  optional,
  label: plain(blockId),
  element: { action_id: 'value', ...element },
});

describe('stateValues', () => {
  it('shapes what the page sends as Slack’s view.state.values, each element by its kind', () => {
    // Prepare
    const view = {
      blocks: [
        input('text', { type: 'plain_text_input' }),
        input('one', { type: 'static_select', options: [option('a'), option('b')] }),
        input('many', {
          type: 'multi_static_select',
          option_groups: [{ options: [option('a'), option('b')] }],
        }),
        input('day', { type: 'datepicker' }),
        input('time', { type: 'timepicker' }),
        input('boxes', { type: 'checkboxes', options: [option('a'), option('b')] }),
        input('radio', { type: 'radio_buttons', options: [option('a')] }),
        input('where', { type: 'conversations_select' }),
        input('channel', { type: 'channels_select' }),
        { type: 'section', text: plain('not an input') },
      ],
    };

    // Act
    const values = stateValues(view, {
      text: { value: 'fintech' },
      one: { value: 'b' },
      many: { value: ['a', 'b', 'nope'] },
      day: { value: '2027-03-04' },
      time: { value: '09:30' },
      boxes: { value: ['b'] },
      radio: { value: 'a' },
      where: { value: 'C0EVENTS' },
    });

    // Assess
    expect(values).toEqual({
      text: { value: { type: 'plain_text_input', value: 'fintech' } },
      one: { value: { type: 'static_select', selected_option: option('b') } },
      many: { value: { type: 'multi_static_select', selected_options: [option('a'), option('b')] } },
      day: { value: { type: 'datepicker', selected_date: '2027-03-04' } },
      time: { value: { type: 'timepicker', selected_time: '09:30' } },
      boxes: { value: { type: 'checkboxes', selected_options: [option('b')] } },
      radio: { value: { type: 'radio_buttons', selected_option: option('a') } },
      where: { value: { type: 'conversations_select', selected_conversation: 'C0EVENTS' } },
      channel: { value: { type: 'channels_select', selected_channel: null } },
    });
  });

  it('reports an emptied text field as null, as Slack does', () => {
    // Act
    const values = stateValues(
      { blocks: [input('text', { type: 'plain_text_input' })] },
      { text: { value: '' } },
    );

    // Assess
    expect(values).toEqual({ text: { value: { type: 'plain_text_input', value: null } } });
  });
});

describe('missingRequired', () => {
  it('names the required fields left empty, not the optional ones', () => {
    // Prepare
    const view = {
      blocks: [
        input('needed', { type: 'plain_text_input' }),
        input('maybe', { type: 'plain_text_input' }, true),
        input('boxes', { type: 'checkboxes', options: [option('a')] }),
        input('filled', { type: 'datepicker' }),
      ],
    };

    // Act
    const missing = missingRequired(view, stateValues(view, { filled: { value: '2027-01-01' } }));

    // Assess
    expect(missing).toEqual({
      needed: 'Please complete this required field.',
      boxes: 'Please complete this required field.',
    });
  });
});

describe('responseUrlFields', () => {
  it('lists the conversation pickers that asked for a response_url, with the conversation chosen', () => {
    // Prepare
    const view = {
      blocks: [
        input('where', { type: 'conversations_select', response_url_enabled: true }),
        input('other', { type: 'conversations_select' }),
        input('unset', { type: 'channels_select', response_url_enabled: true }),
      ],
    };

    // Act
    const fields = responseUrlFields(
      view,
      stateValues(view, { where: { value: 'C0GENERAL' }, other: { value: 'C0EVENTS' } }),
    );

    // Assess
    expect(fields).toEqual([{ blockId: 'where', actionId: 'value', channelId: 'C0GENERAL' }]);
  });
});
