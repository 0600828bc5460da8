import { describe, expect, it } from 'vitest';
import { viewViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { type HomeInput, homeView } from '../../../../../src/slack/features/home/views.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';
import { escapeMrkdwn } from '../../../../../src/slack/views/mrkdwn.ts';

const NOW = new Date('2026-03-02T10:00:00Z');

const input = (overrides: Partial<HomeInput> = {}): HomeInput => ({
  userId: 'U0ALICE',
  now: NOW,
  balance: 20_000,
  spentToday: 0,
  confirmations: [],
  tasks: [],
  digests: [],
  charges: [],
  ...overrides,
});

/** Every mrkdwn text in a block tree: where `<!channel>` would ping. */
const mrkdwnOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(mrkdwnOf);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const own = record.type === 'mrkdwn' && typeof record.text === 'string' ? [record.text] : [];
  return [...own, ...Object.values(record).flatMap(mrkdwnOf)];
};

const many = <T>(count: number, make: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => make(i));

describe('the App Home view', () => {
  it('stays within a Home tab’s limits however long every list is, counting what it leaves out', () => {
    const view = homeView(
      input({
        notice: escapeMrkdwn('x'.repeat(5000)),
        confirmations: many(60, (i) => ({
          id: `conf-${i}`,
          description: `Unlock event ${i} ${'<!channel> '.repeat(300)}`,
          price: { credits: 2000, upTo: false },
          requestedBy: 'U0ALICE',
          channelId: 'C0GENERAL',
          deadline: NOW.toISOString(),
        })),
        tasks: many(80, (i) => ({
          kind: 'email' as const,
          people: i + 1,
          channelId: 'C0GENERAL',
          threadTs: `1700000000.${String(i).padStart(6, '0')}`,
          createdAt: NOW.toISOString(),
        })),
        digests: many(40, (i) => ({
          channelId: `C0CHAN${i}`,
          time: '08:30',
          timeZone: 'Europe/Berlin',
          filters: { keywords: 'k'.repeat(500) },
        })),
        charges: many(90, () => ({
          at: NOW.toISOString(),
          action: 'event-unlock',
          credits: 2000,
          requestedBy: 'U1',
          confirmedBy: 'U1',
          status: 'charged' as const,
        })),
      }),
    );

    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(viewViolations('home', { type: 'home', blocks: view.blocks })).toEqual([]);
    const text = textsOf(view.blocks).join('\n');
    expect(text).toContain('…and 50 more confirmations');
    expect(text).toContain('…and 60 more unlocks');
    expect(text).toContain('…and 30 more digests');
    expect(text).toContain('…and 70 more charges');
    // Data in mrkdwn is escaped (plain_text, as in the confirm dialog, never pings anyone).
    expect(mrkdwnOf(view.blocks).join('\n')).not.toContain('<!channel>');
  });

  it('offers Cancel but not Confirm to a requester who needs an approver, saying why', () => {
    const view = homeView(
      input({
        confirmations: [
          {
            id: 'conf-1',
            description: 'Unlock event 26855',
            price: { credits: 5000, upTo: false },
            requestedBy: 'U0ALICE',
            channelId: 'C0GENERAL',
            deadline: NOW.toISOString(),
            confirmRefusal:
              'Charges of 1,000 credits or more need an approver other than the requester: <@U0BOSS>.',
          },
        ],
      }),
    );

    expect(buttonsOf(view.blocks).map((b) => b.action_id)).not.toContain('confirm.yes');
    expect(buttonsOf(view.blocks).map((b) => b.action_id)).toContain('confirm.no');
    expect(textsOf(view.blocks).join('\n')).toContain('need an approver');
  });

  it('says which parts could not be read instead of showing nothing', () => {
    const view = homeView(
      input({
        balance: null,
        spentToday: null,
        confirmations: null,
        tasks: null,
        digests: null,
        charges: null,
      }),
    );

    const text = textsOf(view.blocks).join('\n');
    expect(text.match(/not available right now/g)).toHaveLength(2);
    expect(text).not.toMatch(/unavailable/);
    expect(text.match(/Could not be read just now/g)).toHaveLength(4);
  });

  it('gives the digest buttons the channel id as their value', () => {
    const view = homeView(
      input({ digests: [{ channelId: 'C0GENERAL', time: '09:00', timeZone: 'UTC', filters: {} }] }),
    );

    const values = buttonsOf(view.blocks)
      .filter((b) => b.action_id === 'open.digest' || b.action_id === 'digest.off')
      .map((b) => b.value);
    expect(values).toEqual(['C0GENERAL', 'C0GENERAL']);
  });
});
