import { describe, expect, it } from 'vitest';
import type {
  WatchAccount,
  WatchAlertMessage,
  WatchExhibitor,
  WatchLookupOutcome,
  WatchNoticeMessage,
  WatchSettings,
  WatchShow,
} from '../../../src/domain/ports/index.ts';
import { checkWatchedChannel, type WatchCheckDeps } from '../../../src/domain/watch/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { createLogger } from '../../../src/platform/log.ts';

/*
 * A channel's watch check over fake ports: what it posts, what it stores, and that it says each thing
 * once. The store and the service are in-memory stand-ins with the ports' behaviour.
 */

const TODAY = '2027-03-01';
const show = (eventId: string, dateStart: string, city = 'Berlin'): WatchShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city,
});
const ACME: WatchExhibitor = { id: '4100', companyName: 'Acme Robotics GmbH', domain: 'acme.example' };

function account(key: string, label: string, extra: Partial<WatchAccount> = {}): WatchAccount {
  return {
    type: 'watch-account',
    teamId: 'T1',
    channelId: 'C1',
    key,
    label,
    kind: 'target',
    resolution: 'pending',
    exhibitorIds: [],
    muted: false,
    addedBy: 'U1',
    addedAt: `${TODAY}T00:00:00.000Z`,
    ...extra,
  };
}

function harness(accounts: WatchAccount[]) {
  const stored = new Map(accounts.map((a) => [a.key, a]));
  // The store's claims, in memory: a slice taken once; a continuation after the slice before handed
  // on; the hourly run's (null) when nothing holds the check; a released slice taken by its retry.
  const claims = new Map<
    string,
    { slice: number; state: 'running' | 'released' | 'handed-on' | 'done'; paidLookups: number }
  >();
  const checked: string[] = [];
  const alerts: WatchAlertMessage[] = [];
  const notices: WatchNoticeMessage[] = [];
  const shows = new Map<string, WatchShow[]>([[ACME.id, [show('E1', '2027-04-01')]]]);
  const settings: WatchSettings = {
    type: 'watch-settings',
    teamId: 'T1',
    channelId: 'C1',
    status: 'on',
    budgetCredits: 0,
    spentCredits: 0,
    revision: 1,
    createdAt: `${TODAY}T00:00:00.000Z`,
    updatedAt: `${TODAY}T00:00:00.000Z`,
    nextCheckAt: `${TODAY}T00:00:00.000Z`,
  };
  const deps: WatchCheckDeps = {
    watchLists: {
      settings: () => Promise.resolve(settings),
      allAccounts: () => Promise.resolve([...stored.values()]),
      saveLookup: (_t, _c, key, outcome: WatchLookupOutcome) => {
        const before = stored.get(key);
        if (before) stored.set(key, { ...before, ...outcome });
        return Promise.resolve(before !== undefined);
      },
      markChecked: (_t, _c, key, checkId) => {
        const before = stored.get(key);
        if (before) stored.set(key, { ...before, checkedIn: checkId });
        return Promise.resolve();
      },
      checked: (_s, run) => {
        checked.push(run.nextCheckAt.toISOString());
        return Promise.resolve(settings);
      },
      claimCheck: (_t, _c, id, slice) => {
        const held = claims.get(id);
        const free =
          !held ||
          (slice === null
            ? held.state === 'released'
            : (held.state === 'handed-on' && held.slice === slice - 1) ||
              (held.state === 'released' && held.slice === slice));
        if (!free) return Promise.resolve(null);
        const taken = slice ?? (held ? held.slice + 1 : 0);
        const paidLookups = held?.paidLookups ?? 0;
        claims.set(id, { slice: taken, state: 'running', paidLookups });
        return Promise.resolve({ owner: `owner-${id}`, slice: taken, paidLookups });
      },
      releaseCheck: (_t, _c, id) => {
        const held = claims.get(id);
        if (held) claims.set(id, { ...held, state: 'released' });
        return Promise.resolve();
      },
      endSlice: (_t, _c, id, _o, { next, paidLookups }) => {
        const held = claims.get(id);
        if (held)
          claims.set(id, {
            ...held,
            state: next === 'more' ? 'handed-on' : 'done',
            paidLookups: held.paidLookups + paidLookups,
          });
        return Promise.resolve();
      },
    },
    lookups: {
      exhibitorShows: (id) => Promise.resolve(shows.get(id) ?? []),
      upcomingShows: () => Promise.resolve([show('E1', '2027-04-01')]),
      showExhibitorMatches: (_e, keyword) =>
        Promise.resolve(
          // The service matches a keyword within names and descriptions: a near-miss comes back too and must not count.
          'acme robotics'.startsWith(keyword)
            ? [ACME, { id: '4200', companyName: 'Acme Robotics Services' }]
            : [{ id: '4300', companyName: 'Initech', website: null }],
        ),
      exhibitorsByDomain: () => Promise.resolve([ACME]),
      peopleAt: () => Promise.resolve([{ personnelId: '9001', name: 'Ada Lovelace', title: 'CTO' }]),
      fitScore: () => Promise.resolve({ score: 7.5, recommendation: 'recommended' }),
    },
    poster: {
      postAlert: (alert) => {
        alerts.push(alert);
        return Promise.resolve({ ts: `17000.${alerts.length}` });
      },
      postNotice: (notice) => {
        notices.push(notice);
        return Promise.resolve();
      },
    },
    logger: createLogger({ level: 'error' }),
    now: () => new Date(`${TODAY}T09:00:00.000Z`),
  };
  return { deps, stored, alerts, notices, shows, checked };
}

const request = (checkId: string) => ({ teamId: 'T1', channelId: 'C1', checkId });
/** A failure that passes (the service down, say). */
const retryable = () => new AppError('EIS_UPSTREAM', 'the service failed', { retryable: true });

describe('checkWatchedChannel', () => {
  it('resolves a name on its exact company name and tells its current shows without an alert', async () => {
    // Prepare
    const { deps, stored, alerts } = harness([account('name:acme robotics', 'Acme Robotics')]);

    // Act
    const summary = await checkWatchedChannel(deps, request('c1'));

    // Assess
    expect(alerts).toEqual([]);
    expect(stored.get('name:acme robotics')).toMatchObject({
      resolution: 'resolved',
      exhibitorIds: ['4100'],
      told: [{ eventId: 'E1' }],
    });
    expect(summary).toMatchObject({ accounts: 1, postedAlert: false, appeared: 0 });
  });

  it('posts one alert for a new appearance, with the people, then nothing on the next check', async () => {
    // Prepare
    const { deps, alerts, shows, stored } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E1', '2027-04-01'), show('E2', '2027-05-01')]);

    // Act
    const first = await checkWatchedChannel(deps, request('c2'));
    const again = await checkWatchedChannel(deps, request('c3'));

    // Assess
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.rows).toMatchObject([
      { account: { label: 'acme.example' }, show: { eventId: 'E2' }, people: [{ name: 'Ada Lovelace' }] },
    ]);
    expect(first).toMatchObject({ postedAlert: true, appeared: 1 });
    expect(again).toMatchObject({ postedAlert: false, appeared: 0 });
    expect(stored.get('domain:acme.example')?.told).toContainEqual(
      expect.objectContaining({ eventId: 'E2', threadTs: '17000.1' }),
    );
  });

  it('does nothing for a check id it has already run', async () => {
    // Prepare
    const { deps, alerts, shows } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E2', '2027-05-01')]);

    // Act
    await checkWatchedChannel(deps, request('c2'));
    const redelivered = await checkWatchedChannel(deps, request('c2'));

    // Assess
    expect(alerts).toHaveLength(1);
    expect(redelivered).toMatchObject({ alreadyChecked: true, serviceCalls: 0 });
  });

  it('says a dropped show once, in the thread of the alert that announced it', async () => {
    // Prepare
    const { deps, alerts, notices, shows } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E1', '2027-04-01'), show('E2', '2027-05-01')]);
    await checkWatchedChannel(deps, request('c2'));
    shows.set(ACME.id, [show('E1', '2027-04-01')]);

    // Act
    await checkWatchedChannel(deps, request('c3'));
    await checkWatchedChannel(deps, request('c4'));

    // Assess
    expect(alerts).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.threadTs).toBe('17000.1');
    expect(notices[0]?.dropped.map(({ show }) => show.eventId)).toEqual(['E2']);
  });

  it('posts nothing for a muted account, and a near-miss name stays not found', async () => {
    // Prepare
    const muted = account('domain:acme.example', 'acme.example', { muted: true });
    const nearMiss = account('name:initech systems', 'Initech Systems');
    const { deps, alerts, shows, stored } = harness([muted, nearMiss]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E2', '2027-05-01')]);

    // Act
    await checkWatchedChannel(deps, request('c2'));

    // Assess
    expect(alerts).toEqual([]);
    expect(stored.get('name:initech systems')).toMatchObject({ resolution: 'not-found', exhibitorIds: [] });
  });

  it('shows a row without a fit score when the score cannot be read, and gives a score read to its row', async () => {
    // Prepare
    const { deps, alerts, shows } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E1', '2027-04-01'), show('E2', '2027-05-01'), show('E3', '2027-06-01')]);
    deps.lookups.fitScore = (eventId) =>
      eventId === 'E2'
        ? Promise.reject(new Error('the service failed'))
        : Promise.resolve({ score: 6.2, recommendation: 'consider' });

    // Act
    await checkWatchedChannel(deps, request('c2'));

    // Assess
    const rows = alerts[0]?.rows ?? [];
    expect(rows.map((row) => [row.show.eventId, row.fit?.score])).toEqual([
      ['E2', undefined],
      ['E3', 6.2],
    ]);
    expect(rows[0]).not.toHaveProperty('fit');
  });

  it('gives its claim back when it fails before posting, so a retry of the same id runs', async () => {
    // Prepare
    const { deps, alerts, shows } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E2', '2027-05-01')]);
    const lookups = deps.lookups;
    deps.lookups = { ...lookups, exhibitorShows: () => Promise.reject(retryable()) };

    // Act
    const failed = await checkWatchedChannel(deps, request('c2')).catch((error: unknown) => error);
    deps.lookups = lookups;
    const retried = await checkWatchedChannel(deps, request('c2'));

    // Assess
    expect(failed).toMatchObject({ code: 'WATCH_CHECK_FAILED' });
    expect(retried).toMatchObject({ alreadyChecked: false, postedAlert: true });
    expect(alerts.map((alert) => alert.rows.map((row) => row.show.eventId))).toEqual([['E2']]);
  });

  it('keeps its claim when it fails after posting its alert (a retry posts nothing twice)', async () => {
    // Prepare
    const { deps, alerts, shows } = harness([account('domain:acme.example', 'acme.example')]);
    await checkWatchedChannel(deps, request('c1'));
    shows.set(ACME.id, [show('E2', '2027-05-01')]);
    const postAlert = deps.poster.postAlert;
    deps.poster.postAlert = async (alert) => {
      await postAlert(alert);
      throw new Error('Slack answered 500 after posting');
    };

    // Act
    await checkWatchedChannel(deps, request('c2')).catch(() => undefined);
    deps.poster.postAlert = postAlert;
    const retried = await checkWatchedChannel(deps, request('c2'));

    // Assess
    expect(retried).toMatchObject({ alreadyChecked: true });
    expect(alerts).toHaveLength(1);
  });

  it('searches a name not found yet only in shows not searched yet, and in every show again after a week', async () => {
    // Prepare
    const { deps } = harness([account('name:initech systems', 'Initech Systems')]);
    let upcoming = ['U1', 'U2'];
    let day = '2027-03-01';
    const searched: string[][] = [];
    deps.lookups.upcomingShows = () => Promise.resolve(upcoming.map((id) => show(id, '2027-04-01')));
    deps.lookups.showExhibitorMatches = (eventId) => {
      searched.at(-1)?.push(eventId);
      return Promise.resolve([{ id: '4300', companyName: 'Initech', website: null }]);
    };
    deps.now = () => new Date(`${day}T09:00:00.000Z`);
    const checkOn = async (on: string, checkId: string) => {
      day = on;
      searched.push([]);
      await checkWatchedChannel(deps, request(checkId));
    };

    // Act: the first check, a day later with one new show, then a week after the first
    await checkOn('2027-03-01', 'c1');
    upcoming = ['U1', 'U2', 'U3'];
    await checkOn('2027-03-02', 'c2');
    await checkOn('2027-03-03', 'c3');
    await checkOn('2027-03-08', 'c4');

    // Assess
    expect(searched).toEqual([['U1', 'U2'], ['U3'], [], ['U1', 'U2', 'U3']]);
  });

  it('watches a name found later from the shows it is on, announcing only a show searched without it before', async () => {
    // Prepare: the first check searches U1 and U2 and finds the name in neither
    const { deps, stored, alerts, shows } = harness([account('name:acme robotics', 'Acme Robotics')]);
    let day = '2027-03-01';
    let listing: string[] = [];
    deps.now = () => new Date(`${day}T09:00:00.000Z`);
    deps.lookups.upcomingShows = () => Promise.resolve([show('U1', '2027-04-01'), show('U2', '2027-05-01')]);
    deps.lookups.showExhibitorMatches = (eventId) => Promise.resolve(listing.includes(eventId) ? [ACME] : []);
    // P9: a show it was on all along, among none searched
    shows.set(ACME.id, [show('U2', '2027-05-01'), show('P9', '2027-09-01')]);
    await checkWatchedChannel(deps, request('c1'));

    // Act: U2 lists it now; the week's full search finds it there
    listing = ['U2'];
    day = '2027-03-08';
    const summary = await checkWatchedChannel(deps, request('c2'));

    // Assess
    expect(stored.get('name:acme robotics')).toMatchObject({
      resolution: 'resolved',
      exhibitorIds: ['4100'],
    });
    expect(alerts.flatMap((alert) => alert.all.map((row) => row.show.eventId))).toEqual(['U2']);
    expect(summary).toMatchObject({ postedAlert: true, appeared: 1 });
    expect(
      stored
        .get('name:acme robotics')
        ?.told?.map((told) => told.eventId)
        .sort(),
    ).toEqual(['P9', 'U2']);
  });

  it('checks many names in slices within the call budget, each slice skipping what the last stored', async () => {
    // Prepare: ten names no show lists (each 20 searches and a shows call planned)
    const names = Array.from({ length: 10 }, (_, n) => account(`name:nobody ${n}`, `Nobody ${n}`));
    const { deps, stored, checked } = harness(names);
    deps.lookups.upcomingShows = () =>
      Promise.resolve(Array.from({ length: 20 }, (_, n) => show(`U${n}`, '2027-04-01')));
    deps.lookups.showExhibitorMatches = () => Promise.resolve([]);

    // Act: the hourly run's slice, then each continuation it names
    const slices = [await checkWatchedChannel(deps, request('c1'))];
    for (let next = slices[0]?.next; next; next = slices.at(-1)?.next)
      slices.push(await checkWatchedChannel(deps, next));

    // Assess
    expect(slices.map((slice) => [slice.looked, slice.remaining])).toEqual([
      [3, 7],
      [3, 4],
      [3, 1],
      [1, 0],
    ]);
    expect(Math.max(...slices.map((slice) => slice.serviceCalls))).toBeLessThanOrEqual(80);
    expect([...stored.values()].every((a) => a.checkedIn === 'c1' && a.resolution === 'not-found')).toBe(
      true,
    );
    expect(checked).toHaveLength(1);
  });

  it('tries at most 5 paid look-ups in a check, however many slices it runs', async () => {
    // Prepare: seven names no show lists, and a budget whose paid path counts its attempts (each
    // stopped at once: what is counted is that it was tried)
    const names = Array.from({ length: 7 }, (_, n) => account(`name:nobody ${n}`, `Nobody ${n}`));
    const { deps } = harness(names);
    deps.lookups.upcomingShows = () =>
      Promise.resolve(Array.from({ length: 20 }, (_, n) => show(`U${n}`, '2027-04-01')));
    deps.lookups.showExhibitorMatches = () => Promise.resolve([]);
    const base = await deps.watchLists.settings('T1', 'C1');
    if (!base) throw new Error('no settings');
    deps.watchLists.settings = () => Promise.resolve({ ...base, budgetCredits: 100, budgetSetBy: 'U9' });
    let attempts = 0;
    const precheckFails = new Proxy(
      {},
      {
        get: () => () => {
          attempts++;
          throw new Error('no charge in this test');
        },
      },
    );
    deps.paidLookup = {
      charge: { now: deps.now, eis: new Proxy({}, { get: () => precheckFails }) } as never,
      // No look-up of the account this month yet: each one goes on to the precheck
      watchLists: { paidLookup: () => Promise.resolve(null) } as never,
      mayPreApprove: () => Promise.resolve(true),
    };

    // Act
    const slices = [await checkWatchedChannel(deps, request('c1'))];
    for (let next = slices[0]?.next; next; next = slices.at(-1)?.next)
      slices.push(await checkWatchedChannel(deps, next));

    // Assess
    expect(slices).toHaveLength(3);
    expect(attempts).toBe(5);
  });
});
