import { describe, expect, it } from 'vitest';
import type { UnlockResult } from '../../../../src/domain/unlock-result.ts';
import { blockKitViolations } from '../../../../local/slack/block-kit-check.ts';
import { FOLLOW_UP_BLOCKS, followUpButtons, followUpReply } from '../../../../src/slack/features/follow-up/views.ts';
import { unlockResultReply } from '../../../../src/slack/features/unlock-results/views.ts';

const ids = (count: number) => Array.from({ length: count }, (_, i) => String(200_000 + i));

function emailResult(count: number): UnlockResult {
  return {
    kind: 'email',
    status: 'completed',
    people: ids(count).map((personnelId) => ({ personnelId, value: `${personnelId}@mail.example` })),
    skipped: [],
  };
}

const names = Object.fromEntries(ids(100).map((id) => [id, `Person With A Rather Long Name ${id}`]));

describe('follow-up buttons under email results', () => {
  it('stays within Block Kit limits for 100 people: at most 25 buttons a block and 50 blocks', () => {
    // Act
    const reply = unlockResultReply(emailResult(100), names, '1700000000.000100');

    // Assess
    expect(blockKitViolations(reply.text, reply.blocks)).toEqual([]);
    expect(reply.blocks.length).toBeLessThanOrEqual(50);
    const rows = reply.blocks.filter((block) => block.type === 'actions');
    for (const row of rows) expect(row.elements.length).toBeLessThanOrEqual(25);
    expect(JSON.stringify(reply.blocks)).toContain('Draft outreach for all 100');
    expect(JSON.stringify(reply.blocks)).toContain('first 12');
  });

  it('adds at most FOLLOW_UP_BLOCKS blocks, and none for phone results or when no email was found', () => {
    expect(followUpButtons(emailResult(100), names).length).toBeLessThanOrEqual(FOLLOW_UP_BLOCKS);
    expect(followUpButtons({ ...emailResult(3), kind: 'phone' })).toEqual([]);
    const none: UnlockResult = {
      ...emailResult(2),
      people: ids(2).map((personnelId) => ({ personnelId, value: null, problem: 'no email address found' })),
    };
    expect(followUpButtons(none)).toEqual([]);
  });

  it('carries the people and the thread in each button, so the answer goes to the unlock’s thread', () => {
    const [all] = followUpButtons(emailResult(1), names, '1700000000.000100');
    expect(all?.type).toBe('actions');
    const values = all?.type === 'actions' ? all.elements.map((e) => ('value' in e ? e.value : '')) : [];
    expect(values).toHaveLength(2);
    for (const value of values)
      expect(JSON.parse(value ?? '{}')).toMatchObject({
        personnelIds: ['200000'],
        threadTs: '1700000000.000100',
      });
  });
});

describe('the drafts reply', () => {
  it('fits 100 long drafts within Block Kit limits and says nothing was sent', () => {
    const reply = followUpReply(
      {
        kind: 'outreach',
        people: ids(100).map((personnelId) => ({
          personnelId,
          drafts: { email: 'Hi there, '.repeat(120), linkedin: 'Great to connect. '.repeat(10) },
        })),
        skipped: [{ personnelId: '1', reason: 'no event to write the message for' }],
      },
      names,
    );
    expect(blockKitViolations(reply.text, reply.blocks)).toEqual([]);
    expect(JSON.stringify(reply.blocks)).toContain('Nothing was sent');
  });
});
