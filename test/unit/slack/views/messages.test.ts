import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../local/fake-slack/block-kit-check.ts';
import { COMMAND_SPECS as COMMANDS } from '../../../../src/slack/commands/index.ts';
import {
  commandHelp,
  helpText,
  unknownCommand,
  usageError,
} from '../../../../src/slack/commands/help-views.ts';
import {
  creditsCard,
  errorMessage,
  inviteBotMessage,
  workingMessage,
} from '../../../../src/slack/views/messages.ts';
import type { SlackMessage } from '../../../../src/slack/views/types.ts';
import { textsOf } from '../../../support/views.ts';

const shown = (message: SlackMessage) => textsOf(message.blocks).join('\n');

describe('helpText', () => {
  it('lists every subcommand with an example, and marks the ones that spend credits', () => {
    // Act
    const message = helpText();

    // Assess
    const text = shown(message);
    for (const word of [
      'help',
      'search',
      'show',
      'fit',
      'exhibitors',
      'people',
      'recommend',
      'similar',
      'person-events',
      'credits',
      'who',
      'company',
      'exhibitor',
      'unlock',
      'visitors',
      'full-access',
      'emails',
      'phones',
      'spend',
      'digest',
    ]) {
      expect(COMMANDS.some((command) => command.word === word)).toBe(true);
      expect(text).toContain(`\`/events ${word}`);
    }
    expect(text).toContain('`/events search &lt;keywords&gt; [country:X]');
    expect(text).toContain('e.g. `/events fit 26855`');
    expect(text).toContain('*15 per contact*');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });
});

describe('usageError', () => {
  it('names the problem and shows the usage and an example', () => {
    // Act
    const message = usageError('The event id is missing.', 'fit <event_id>', 'fit 26855');

    // Assess
    const text = shown(message);
    expect(text).toContain('The event id is missing.');
    expect(text).toContain('*Usage:* `/events fit &lt;event_id&gt;`');
    expect(text).toContain('*Example:* `/events fit 26855`');
  });
});

describe('commandHelp', () => {
  it('shows one command: summary, price, usage, example and how its words are read', () => {
    // Prepare
    const digest = COMMANDS.find((command) => command.word === 'digest');
    const who = COMMANDS.find((command) => command.word === 'who');
    if (!digest || !who) throw new Error('missing spec');

    // Act
    const message = commandHelp(digest);

    // Assess
    const text = shown(message);
    expect(text).toContain('*/events digest*: A daily digest in this channel');
    expect(text).toContain('*Usage:* `/events digest on');
    expect(text).toContain(`*Example:* \`/events ${digest.example}\``);
    expect(text).toContain('`keywords:fintech`');
    expect(text).not.toContain('/events fit');
    expect(shown(commandHelp(who))).toContain('credits: *50 if anything matches, per page*');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });
});

describe('unknownCommand', () => {
  it('says what was wrong, suggests the nearest command and keeps the help short', () => {
    // Act
    const message = unknownCommand('`fitt` is not an /events command.', 'fit 26855');

    // Assess
    const text = shown(message);
    expect(text).toContain('`fitt` is not an /events command. Did you mean `/events fit 26855`?');
    expect(text).toContain('`/events help &lt;command&gt;`');
    expect(message.blocks.length).toBeLessThanOrEqual(3);
    expect(text.split('\n').length).toBeLessThanOrEqual(5);
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });

  it('escapes what the user typed', () => {
    // Act
    const message = unknownCommand('`<!channel>` is not an /events command.', '<!here>');

    // Assess
    expect(JSON.stringify(message)).not.toMatch(/<!channel>|<!here>/);
  });
});

describe('errorMessage', () => {
  it('shows the message but never a stack', () => {
    // Act
    const message = errorMessage(
      'The service is busy; try again in a minute.\n    at request (core.ts:10:5)',
    );

    // Assess
    expect(message.text).toContain('The service is busy; try again in a minute.');
    expect(JSON.stringify(message)).not.toContain('core.ts');
  });
});

describe('workingMessage', () => {
  it('says what is being done', () => {
    // Act
    const message = workingMessage('Fetching exhibitors');

    // Assess
    expect(message.text).toContain('Fetching exhibitors…');
  });
});

describe('creditsCard', () => {
  it('shows the total and each bucket with add-on expiry and the reset date', () => {
    // Act
    const message = creditsCard({
      totalAmount: 20_000,
      totalBalance: 12_345,
      subscriptionAmount: 10_000,
      subscriptionBalance: 8_000,
      addonAmount: 5_000,
      addonBalance: 4_000,
      addonExpireAt: 1784851200000,
      giftAmount: 500,
      giftBalance: 345,
      resetAt: 1785542400000,
    });

    // Assess
    const text = shown(message);
    expect(text).toContain('*12,345 credits* available of 20,000');
    expect(text).toContain('*Subscription*\n8,000 of 10,000');
    expect(text).toContain('*Add-on*\n4,000 of 5,000\nexpires <!date^1784851200^{date_short}|24 Jul 2026>');
    expect(text).toContain('*Gift*\n345 of 500');
    expect(text).toContain('*Subscription resets*\n<!date^1785542400^');
  });
});

describe('inviteBotMessage', () => {
  it('tells how to invite the bot to the channel', () => {
    // Act
    const message = inviteBotMessage('C123');

    // Assess
    expect(message.text).toContain('<#C123>');
    expect(message.text).toContain('`/invite @eventbot`');
  });
});
