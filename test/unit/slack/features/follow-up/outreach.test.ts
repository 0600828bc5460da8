import { describe, expect, it } from 'vitest';
import type { UnlockResult } from '../../../../../src/domain/unlock-result.ts';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import {
  FOLLOW_UP_BLOCKS,
  followUpButtons,
  followUpReply,
  outreachStartedNotice,
} from '../../../../../src/slack/features/follow-up/views.ts';
import { unlockResultReply } from '../../../../../src/slack/features/unlock-results/views.ts';

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

describe('who is skipped, by name, and why', () => {
  const ann = { '300001': 'Ann Lee', '300002': 'Bo Park' };

  it('groups the skipped by reason, names them, and says what to do', () => {
    // Act
    const notice = outreachStartedNotice(
      {
        drafting: 3,
        skipped: [
          { personnelId: '300001', reason: 'no-event' },
          { personnelId: '300002', reason: 'no-event' },
          { personnelId: '300003', reason: 'refused' },
        ],
      },
      ann,
    );

    // Assess
    const text = JSON.stringify(notice.blocks);
    expect(notice.text).toBe(
      'Drafting outreach for 3 people (3 skipped)… The drafts will arrive in this thread. Drafting spends no credits.',
    );
    expect(text).toContain('Skipped *Ann Lee* (`300001`), *Bo Park* (`300002`): the service links them to no event');
    expect(text).toContain('`/events people <event id>`');
    expect(text).toContain('Skipped Person `300003`: the service refused to draft for them');
    expect(blockKitViolations(notice.text, notice.blocks)).toEqual([]);
  });

  it('shows a reason stored as words (an older task’s) as it is, escaped', () => {
    const reply = followUpReply(
      { kind: 'outreach', people: [], skipped: [{ personnelId: '300001', reason: 'not <linked>' }] },
      ann,
    );
    expect(JSON.stringify(reply.blocks)).toContain('Skipped *Ann Lee* (`300001`): not &lt;linked&gt;');
  });

  it('lists at most ten names for a reason, then how many more, within Block Kit limits', () => {
    const skipped = ids(100).map((personnelId) => ({ personnelId, reason: 'not-found' }));
    const notice = outreachStartedNotice({ drafting: 0, skipped }, names);
    expect(notice.text).toBe('No drafts could be started for these people.');
    expect(JSON.stringify(notice.blocks)).toContain('90 more: the service does not know this person id');
    expect(blockKitViolations(notice.text, notice.blocks)).toEqual([]);
  });
});

describe('follow-up buttons for people taken from an event’s list', () => {
  it('carry that event, so the drafts are written for it', () => {
    const blocks = unlockResultReply(emailResult(2), names, '1700000000.000100', '26855').blocks;
    const values = blocks.flatMap((block) =>
      block.type === 'actions' ? block.elements.map((e) => ('value' in e ? (e.value ?? '') : '')) : [],
    );
    const followUps = values.map((value) => JSON.parse(value) as { eventId?: string; personnelIds?: string[] });
    const drafts = followUps.filter((value) => value.personnelIds);
    expect(drafts.length).toBeGreaterThanOrEqual(5);
    for (const value of drafts) expect(value.eventId).toBe('26855');
  });
});
