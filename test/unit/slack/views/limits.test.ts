import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { fitToLimits } from '../../../../src/slack/views/limits.ts';
import { escapeMrkdwn, truncate } from '../../../../src/slack/views/mrkdwn.ts';

const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('escapeMrkdwn', () => {
  it('turns control characters into entities so mentions in data never ping', () => {
    expect(escapeMrkdwn('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });
});

describe('truncate', () => {
  it('ends with an ellipsis and never leaves half an entity or link behind', () => {
    // Act
    const entity = truncate(`${'a'.repeat(8)}&amp;bbbb`, 12);
    const link = truncate(`see <https://example.com|example>`, 20);

    // Assess
    expect(entity).toBe(`${'a'.repeat(8)}…`);
    expect(link).toBe('see …');
  });
});

describe('fitToLimits', () => {
  it('keeps 50 blocks, the footer buttons, and a count of the rows left out', () => {
    // Prepare
    const rows = Array.from({ length: 80 }, (_, index) => section(`row ${index}`));
    const footer: KnownBlock = {
      type: 'actions',
      elements: [
        { type: 'button', action_id: 'list.page', text: { type: 'plain_text', text: 'Next' }, value: '{}' },
      ],
    };

    // Act
    const message = fitToLimits({ text: 'rows', blocks: [...rows, footer] });

    // Assess
    expect(message.blocks).toHaveLength(50);
    expect(message.blocks.at(-1)).toEqual(footer);
    expect(message.blocks.at(-2)).toMatchObject({ type: 'context', elements: [{ text: '…and 32 more' }] });
  });

  it('cuts long texts to the limits of their place', () => {
    // Prepare
    const blocks: KnownBlock[] = [
      { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(400) } },
      section('s'.repeat(5000)),
      {
        type: 'section',
        fields: Array.from({ length: 14 }, () => ({ type: 'mrkdwn' as const, text: 'f'.repeat(2500) })),
      },
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'fit.people', text: { type: 'plain_text', text: 'b'.repeat(100) } },
        ],
      },
    ];

    // Act
    const [heading, long, fields, buttons] = fitToLimits({ text: 't', blocks }).blocks;

    // Assess
    expect(heading?.type === 'header' && heading.text.text.length).toBe(150);
    expect(long?.type === 'section' && long.text?.text.length).toBe(3000);
    expect(fields?.type === 'section' && fields.fields?.length).toBe(10);
    expect(fields?.type === 'section' && fields.fields?.every((field) => field.text.length <= 2000)).toBe(
      true,
    );
    expect(fields?.type === 'section' && fields.fields?.at(-1)?.text).toBe('…and 5 more');
    expect(
      buttons?.type === 'actions' &&
        buttons.elements[0]?.type === 'button' &&
        buttons.elements[0].text.text.length,
    ).toBe(75);
  });

  it('drops a button whose value is over 2,000 characters, and an actions block left empty', () => {
    // Prepare
    const blocks: KnownBlock[] = [
      section('hello'),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'list.page',
            text: { type: 'plain_text', text: 'Next' },
            value: 'v'.repeat(2001),
          },
        ],
      },
    ];

    // Act
    const message = fitToLimits({ text: 't', blocks });

    // Assess
    expect(message.blocks).toEqual([section('hello')]);
  });
});
