import { describe, expect, it } from 'vitest';
import type { WatchAccount } from '../../../src/domain/ports/records.ts';
import { watchedAccountsAt } from '../../../src/domain/watch/at-show.ts';

const account = (label: string, kind: WatchAccount['kind'], shows: string[]): WatchAccount =>
  ({
    label,
    kind,
    told: shows.map((eventId) => ({ eventId, name: null, dateStart: null, dateEnd: null, city: null })),
  }) as unknown as WatchAccount;

describe('watchedAccountsAt', () => {
  it('names the accounts told at each show, by name, and none at the others', () => {
    const accounts = [
      account('Globex', 'competitor', ['1', '2']),
      account('Acme', 'target', ['2']),
      account('Initech', 'target', []),
    ];
    const at = watchedAccountsAt(accounts, ['1', '2', '3']);
    expect(at.get('1')).toEqual([{ label: 'Globex', kind: 'competitor' }]);
    expect(at.get('2')?.map((a) => a.label)).toEqual(['Acme', 'Globex']);
    expect(at.get('3')).toEqual([]);
  });
});
