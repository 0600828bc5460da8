import { describe, expect, it } from 'vitest';
import type { ChargeAction } from '../../../../src/domain/charging.ts';
import { BUTTON_COMMANDS } from '../../../../src/slack/commands/buttons.ts';
import { chargeActionOf } from '../../../../src/slack/commands/index.ts';
import { askAgainValue } from '../../../../src/slack/kit/charge-words.ts';
import { ACTION_IDS } from '../../../../src/slack/views/action-ids.ts';
import { commandOf } from '../../../support/commands.ts';

const SHOW = { eventId: '26855' };
const ROW = { eventId: '26855', exhibitorId: '4100', label: 'Acme Robotics' };
const PEOPLE = { personnelIds: ['100001', '100002'], eventId: '26855' };

/** A value of each button that stands for a command, as the views write it. */
const VALUES: Record<string, unknown[]> = {
  [ACTION_IDS.fitUnlock]: [SHOW],
  [ACTION_IDS.fitExhibitors]: [SHOW],
  [ACTION_IDS.fitPeople]: [SHOW],
  [ACTION_IDS.fitRecommend]: [SHOW],
  [ACTION_IDS.eventFit]: [SHOW],
  [ACTION_IDS.listUnlock]: [SHOW],
  [ACTION_IDS.peopleEmails]: [PEOPLE, { personnelIds: ['100001'] }],
  [ACTION_IDS.peoplePhones]: [PEOPLE],
  [ACTION_IDS.accountOpen]: [{ exhibitorId: '4100' }],
  [ACTION_IDS.digestUnlock]: [SHOW],
  [ACTION_IDS.digestFit]: [SHOW],
  [ACTION_IDS.planAdd]: [SHOW],
  [ACTION_IDS.planRemove]: [SHOW],
  [ACTION_IDS.planExport]: [undefined],
  [ACTION_IDS.outcomeDelete]: [{ id: '3f9a0c12' }],
  [ACTION_IDS.spendExport]: [{ period: 'month' }, { period: 'Q2-2027' }],
  [ACTION_IDS.watchFit]: [ROW],
  [ACTION_IDS.watchPeople]: [ROW, { eventId: '26855', label: 'Acme Robotics' }],
  [ACTION_IDS.watchMute]: [ROW],
  [ACTION_IDS.watchShowAll]: [{ page: 2 }, { alert: true }, {}],
  [ACTION_IDS.watchExport]: [undefined],
  [ACTION_IDS.watchPagePrevious]: [{ view: 'list', page: 1 }],
  [ACTION_IDS.watchPageNext]: [{ view: 'shows', page: 2, region: 'Europe', when: 'Q2-2027' }],
  [ACTION_IDS.watchChoose]: [{ label: 'Acme Robotics', exhibitorId: '4100' }],
  [ACTION_IDS.searchPagePrevious]: [askAgainValue({ kind: 'people-by-name', fullName: 'Jane Smith' })],
  [ACTION_IDS.searchPageNext]: [askAgainValue({ kind: 'exhibitor-search', companyName: 'Acme', page: 2 })],
  [ACTION_IDS.confirmRestart]: [askAgainValue({ kind: 'event-unlock', eventId: '26855' })],
};

/** Every charge a closed card may ask for again, as stored (names and the show as its card read them). */
const STORED: ChargeAction[] = [
  {
    kind: 'event-unlock',
    eventId: '26855',
    event: { name: 'Fintech Expo', dateStart: null, dateEnd: null, city: null },
  },
  { kind: 'visitors-unlock', eventId: '26855' },
  { kind: 'full-access-unlock', eventId: '26855' },
  {
    kind: 'email-unlock',
    personnelIds: ['100001', '100002'],
    names: { '100001': 'Ann' },
    fromEventId: '26855',
  },
  { kind: 'phone-unlock', personnelIds: ['100001'] },
  { kind: 'people-by-name', fullName: 'Jane Smith', page: 3 },
  { kind: 'exhibitor-events', companyName: 'Acme Analytics' },
  { kind: 'exhibitor-search', companyName: 'Acme Analytics', page: 2 },
];

describe('the buttons that stand for /events commands', () => {
  it('has a sample value for each, here', () => {
    expect(Object.keys(VALUES).sort()).toEqual(Object.keys(BUTTON_COMMANDS).sort());
  });

  it.each(
    Object.entries(VALUES).flatMap(([action, values]) => values.map((value) => [action, value] as const)),
  )('%s runs the command its words name when typed (%j)', (action, value) => {
    const run = BUTTON_COMMANDS[action]?.(value);

    expect(run).toBeDefined();
    expect(run?.command).toEqual(commandOf(run?.words ?? ''));
  });

  it.each(STORED)('Start again asks for the same $kind charge again', (stored) => {
    const run = BUTTON_COMMANDS[ACTION_IDS.confirmRestart]?.(askAgainValue(stored));
    const {
      names: _names,
      event: _event,
      ...asked
    } = stored as ChargeAction & { names?: unknown; event?: unknown };

    expect(run && chargeActionOf(run.command)).toEqual(asked);
  });

  it('offers no Start again for a LinkedIn analysis (no command asks for it)', () => {
    expect(askAgainValue({ kind: 'linkedin-activity', personnelIds: ['100001'] })).toBeUndefined();
  });
});
