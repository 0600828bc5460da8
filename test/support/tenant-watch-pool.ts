import type { Simulator } from '../../simulator/server.ts';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import type { SeededExhibitor } from '../../simulator/seed.ts';
import { RESOLVE_SHOWS } from '../../src/domain/watch/lookup.ts';
import { normaliseCompanyName } from '../../src/domain/watch/names.ts';

/** What the tenant model's watch steps type, and the service data they meet (issue 32). */

/** A show name from the service that tries to ping the channel and to link away. */
export const HOSTILE_SHOW = '<!here> Fintech Expo <https://evil.example/claim|Claim your badge>';
/** Hosts only hostile data names: a labelled link to one is the data's, never the bot's. */
export const DATA_HOSTS = ['evil.example'];

/** What users type, and what the service knows of it. */
export interface WatchPool {
  /** Names and domains: one the service knows, companies only a paid look-up finds, unknown ones. */
  plain: string[];
  /** Labels that try to ping or link: a domain with a mention before it resolves to a known company. */
  hostile: string[];
  /** Companies a pool label names (exhibitor ids): the ones that may get a new show. */
  companies: string[];
  /** The upcoming show renamed to `HOSTILE_SHOW`. */
  hostileEvent: string;
}

/**
 * The pool, from the simulator's data at `start` (the sequences' business time). Companies "only a
 * paid look-up finds" exhibit only at shows later than the ones the free path searches, even after a
 * month has passed; one upcoming show far from Munich (the digests' city) gets `HOSTILE_SHOW` as name.
 */
export function watchPool(sim: Pick<Simulator, 'events' | 'seed'>, start: Date): WatchPool {
  const byId = new Map(sim.events.map((e) => [e.id, e]));
  const upcoming = sim.events
    .filter((e) => e.dateStart >= start.toISOString().slice(0, 10))
    .sort((a, b) => a.dateStart.localeCompare(b.dateStart));
  // The free path's shows a month from now still end before these.
  const searched = upcoming.slice(0, RESOLVE_SHOWS + 12).at(-1)?.dateStart ?? '';
  const unique = (x: SeededExhibitor) =>
    sim.seed.exhibitors.filter(
      (o) => normaliseCompanyName(o.companyName) === normaliseCompanyName(x.companyName),
    ).length === 1;
  const [late1, late2] = sim.seed.exhibitors.filter(
    (x) =>
      x.eventIds.length > 0 &&
      x.eventIds.every((id) => (byId.get(id)?.dateStart ?? '') > searched) &&
      unique(x),
  );
  const known = sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
  if (!known || !late1 || !late2) throw new Error('the simulator has no companies for the watch pool');
  const hostile = upcoming.find(
    (e) => e.city !== 'Munich' && !['8450', '8453'].includes(e.id) && !e.exhibitorIds.includes(known.id),
  );
  if (!hostile) throw new Error('no upcoming show to give a hostile name');
  hostile.name = HOSTILE_SHOW;
  return {
    plain: [
      KNOWN_COMPANY_NAME,
      known.domain,
      late1.companyName,
      `competitor:${late2.companyName}`,
      'Qzxv Nowhere Holdings',
      'nowhere-qzxv.example',
    ],
    hostile: [
      `<!channel>@${known.domain}`,
      `<@U0EVIL>@${late2.domain}`,
      'Initech <!subteam^S0EVIL> <#C0EVIL>',
      '<https://evil.example/claim|Claim your badge>',
    ],
    companies: [known.id, late1.id, late2.id],
    hostileEvent: hostile.id,
  };
}
