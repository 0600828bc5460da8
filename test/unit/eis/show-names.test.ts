import { describe, expect, it } from 'vitest';
import { createShowNames } from '../../../src/eis/show-names.ts';

/** A service's event details, counting the reads of each show; `failing` shows fail once. */
function details(failing: Set<string> = new Set()) {
  const reads: string[] = [];
  const events = {
    detail: (eventId: string) => {
      reads.push(eventId);
      if (failing.delete(eventId)) return Promise.reject(new Error('service unavailable'));
      return Promise.resolve({
        id: `evt_${eventId}`,
        eventId,
        name: `Show ${eventId}`,
        nickname: null,
        dateStart: '2027-03-01',
        dateEnd: '2027-03-03',
        city: 'Hannover',
        description: 'not a name: never kept',
      });
    },
  };
  return { events, reads };
}

describe('show names for the day', () => {
  it('reads a show once a day, its name, dates and city only, and again the next day', async () => {
    const { events, reads } = details();
    let now = new Date('2027-01-10T23:59:00Z');
    const names = createShowNames(events, { now: () => now });

    const [first, again] = await Promise.all([names.detail('26855'), names.detail('26855')]);
    const later = await names.detail('26855');
    now = new Date('2027-01-11T00:01:00Z');
    await names.detail('26855');

    expect(first).toEqual({
      name: 'Show 26855',
      nickname: null,
      dateStart: '2027-03-01',
      dateEnd: '2027-03-03',
      city: 'Hannover',
    });
    expect(again).toEqual(first);
    expect(later).toEqual(first);
    expect(reads).toEqual(['26855', '26855']);
  });

  it('keeps no failed read: the next asks the service again', async () => {
    const { events, reads } = details(new Set(['26855']));
    const names = createShowNames(events);

    await expect(names.detail('26855')).rejects.toThrow('service unavailable');
    await expect(names.detail('26855')).resolves.toMatchObject({ name: 'Show 26855' });

    expect(reads).toEqual(['26855', '26855']);
  });

  it('keeps at most `kept` shows, the oldest read going first', async () => {
    const { events, reads } = details();
    const names = createShowNames(events, { kept: 2 });

    for (const id of ['1', '2', '3', '2', '3', '1']) await names.detail(id);

    expect(reads).toEqual(['1', '2', '3', '1']);
  });

  it('is one account’s: another client’s names are its own reads', async () => {
    const mine = details();
    const theirs = details();
    const [myNames, theirNames] = [createShowNames(mine.events), createShowNames(theirs.events)];

    await myNames.detail('26855');
    await theirNames.detail('26855');

    expect(mine.reads).toEqual(['26855']);
    expect(theirs.reads).toEqual(['26855']);
  });
});
