import { describe, expect, it } from 'vitest';
import { withEventNaming } from '../../../src/domain/charge-quote.ts';
import type { EisClient } from '../../../src/eis/index.ts';

/** A confirmation card names the event it charges for, read for free, without waiting long. */

type Events = Pick<EisClient, 'events'>;
const reads: string[] = [];
/** An events client whose detail read answers `answer` for the id asked. */
const eventsAnswering = (answer: (eventId: string) => Promise<unknown>): Events =>
  ({
    events: {
      detail: (eventId: string) => {
        reads.push(eventId);
        return answer(eventId);
      },
    },
  }) as unknown as Events;

const expo = {
  id: '27317',
  eventId: '27317',
  name: 'Fintech Expo 2027',
  dateStart: '2027-03-12',
  dateEnd: '2027-03-14',
  city: 'Berlin',
  country: 'Germany',
};

describe('withEventNaming', () => {
  it('adds the event’s name, dates and city to an event unlock', async () => {
    // Act
    const named = await withEventNaming(
      { kind: 'full-access-unlock', eventId: '27317' },
      eventsAnswering(() => Promise.resolve(expo)),
    );

    // Assess
    expect(named).toEqual({
      kind: 'full-access-unlock',
      eventId: '27317',
      event: { name: 'Fintech Expo 2027', dateStart: '2027-03-12', dateEnd: '2027-03-14', city: 'Berlin' },
    });
  });

  it('leaves the action as it was when the read fails, or the event has no name', async () => {
    // Prepare
    const action = { kind: 'event-unlock' as const, eventId: '27317' };

    // Act + Assess
    expect(
      await withEventNaming(
        action,
        eventsAnswering(() => Promise.reject(new Error('503'))),
      ),
    ).toEqual(action);
    expect(
      await withEventNaming(
        action,
        eventsAnswering(() => Promise.resolve({ ...expo, name: ' ', nickname: null })),
      ),
    ).toEqual(action);
  });

  it('does not wait past its bound for a slow read', async () => {
    // Prepare: a read that never answers
    const action = { kind: 'visitors-unlock' as const, eventId: '27317' };
    const started = Date.now();

    // Act
    const named = await withEventNaming(
      action,
      eventsAnswering(() => new Promise(() => {})),
      50,
    );

    // Assess
    expect(named).toEqual(action);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reads nothing for actions that are not event unlocks', async () => {
    // Prepare
    reads.length = 0;
    const action = { kind: 'exhibitor-events' as const, companyName: 'Acme' };

    // Act
    const named = await withEventNaming(
      action,
      eventsAnswering(() => Promise.resolve(expo)),
    );

    // Assess
    expect(named).toBe(action);
    expect(reads).toEqual([]);
  });
});
