import { buildAgentFiles } from './agent-files.ts';
import { createRng, type Rng } from './prng.ts';
import { type CuratedEventSpec, curatedEventSpecs } from './seed-shows.ts';
import {
  CATEGORIES,
  COMPANY_PREFIXES,
  COMPANY_SIZES,
  COMPANY_SUFFIXES,
  DEPARTMENTS,
  EVENT_KINDS,
  EVENT_TYPES,
  FIRST_NAMES,
  FUNDING_ROUNDS,
  INDUSTRIES,
  LAST_NAMES,
  PLACES,
  QUALITIES,
  ROLES,
  SENIORITY,
  TECH_STACKS,
  TOPIC_SUBJECTS,
  TOPICS,
} from './seed-data.ts';

import type {
  FitBand,
  FitScore,
  PersonnelIdentity,
  Seed,
  SeededEvent,
  SeededExhibitor,
  SeededPersonnel,
  SourceType,
} from './seed-records.ts';

export type {
  FitBand,
  FitScore,
  PersonnelIdentity,
  Seed,
  SeededEvent,
  SeededExhibitor,
  SeededPersonnel,
  SourceType,
} from './seed-records.ts';

/** Generated events; the curated shows of seed-shows.ts come after them. */
export const EVENT_COUNT = 48;
export const BIG_EVENT_ID = '8450';
export const EMPTY_EVENT_ID = '8451';
/** A person name that matches several personnel records across upcoming events. */
export const KNOWN_PERSON_NAME = 'Jane Smith';
/** A company that exhibits at several events. */
export const KNOWN_COMPANY_NAME = 'Acme Analytics';

const DAY_MS = 86_400_000;

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function slug(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A fit score in a band of the service's: 0 recommended (7–9.8), 1 consider, 2 not recommended. */
function fitFor(band: number, rng: Rng): FitScore {
  const [low, high] = band === 0 ? [7, 9.8] : band === 1 ? [4, 6.9] : [0.5, 3.9];
  const target = low + rng.next() * (high - low);
  const jitter = (): number => round1(clamp(target + (rng.next() - 0.5) * 3, 0, 10));
  const breakdown = { profile_match: jitter(), matched_exhibitor_density: jitter(), event_scale: jitter() };
  const score = round1(clamp(target, low, high));
  const recommendation: FitBand = score >= 7 ? 'recommended' : score >= 4 ? 'consider' : 'not_recommended';
  return { score, recommendation, breakdown };
}

function buildExhibitors(rng: Rng): SeededExhibitor[] {
  const exhibitors: SeededExhibitor[] = [];
  COMPANY_PREFIXES.forEach((prefix, p) => {
    COMPANY_SUFFIXES.forEach((suffix, s) => {
      const companyName = `${prefix} ${suffix}`;
      const domain = `${slug(prefix)}${slug(suffix)}.example`;
      const size = rng.pick(COMPANY_SIZES);
      exhibitors.push({
        id: String(4100 + p * COMPANY_SUFFIXES.length + s),
        companyName,
        domain,
        description: `${companyName} builds ${suffix.toLowerCase()} products for ${rng.pick(INDUSTRIES).toLowerCase()} teams.`,
        website: `https://www.${domain}`,
        industry: rng.pick(INDUSTRIES),
        employeeCount: rng.int(size.min, size.max),
        companySize: size.label,
        country: rng.pick(PLACES).country,
        logo: `https://logos.${domain}/logo.png`,
        linkedinUrl: `https://www.linkedin.com/company/${slug(companyName)}`,
        fundingRound: rng.pick(FUNDING_ROUNDS),
        categories: rng.chance(0.85) ? rng.sample(CATEGORIES, rng.int(1, 3)) : [],
        techStacks: rng.sample(TECH_STACKS, rng.int(0, 3)),
        matchScore: Math.round(rng.next() * 100) / 100,
        eventIds: [],
      });
    });
  });
  return exhibitors;
}

function exhibitorCountFor(index: number, rng: Rng): number {
  if (index === 0) return 340;
  if (index === 1) return 0;
  if (index === 2) return 50;
  if (index === 3) return 75;
  return rng.int(0, 80);
}

function buildEvents(today: string, rng: Rng): SeededEvent[] {
  const offsets = Array.from(
    { length: EVENT_COUNT - 1 },
    (_, i) => -30 + Math.round((i * 230) / (EVENT_COUNT - 2)),
  );
  const shuffled = rng.sample(offsets, offsets.length);
  const events: SeededEvent[] = [];
  for (let i = 0; i < EVENT_COUNT; i += 1) {
    const offset = i === 0 ? 45 : (shuffled[i - 1] ?? 0);
    const place = i === 0 ? PLACES[0] : PLACES[i % PLACES.length];
    if (!place) throw new Error('no place');
    const topic = i === 0 ? 'Consumer Technology' : (TOPICS[i % TOPICS.length] ?? 'Business');
    const kind =
      i === 0 ? 'Show' : (EVENT_KINDS[Math.floor(i / TOPICS.length) % EVENT_KINDS.length] ?? 'Expo');
    const dateStart = addDays(today, offset);
    const year = dateStart.slice(0, 4);
    const name = `${topic} ${kind} ${year}`;
    const exhibitorCount = exhibitorCountFor(i, rng);
    const personnelCount =
      i === 0 ? 420 : i === 1 ? 0 : exhibitorCount === 0 ? rng.int(5, 30) : Math.round(exhibitorCount * 1.2);
    events.push({
      id: String(8450 + i),
      eventId: String(26855 + i * 11),
      name,
      nickname: rng.chance(0.4) ? `${topic.split(' ')[0]} ${kind}` : null,
      description: `${topic} ${kind.toLowerCase()} in ${place.city}${TOPIC_SUBJECTS[topic] ? `: ${TOPIC_SUBJECTS[topic]}` : ''}.`,
      url: `https://events.example/${slug(name)}`,
      dateStart,
      dateEnd: addDays(dateStart, rng.int(1, 4)),
      venue: place.venue,
      city: place.city,
      region: place.region,
      country: place.country,
      exhibitorCount,
      personnelCount,
      attendeeCount: i === 0 ? 120_000 : rng.int(800, 40_000),
      hasVisitors: i === 0 || i % 3 === 1,
      sponsorMatchStarred: i % 5 === 0 ? 1 : 0,
      image: rng.chance(0.7) ? `https://images.events.example/${i}.png` : null,
      eventType: i === 0 ? 'Trade Show' : rng.pick(EVENT_TYPES),
      quality: i === 0 ? 'high' : rng.pick(QUALITIES),
      topics: [topic],
      fit: fitFor(i % 3, rng),
      recommendationProcessing: i % 11 === 5,
      exhibitorIds: [],
      personnelIds: [],
    });
  }
  return events;
}

/** The curated shows (seed-shows.ts) as seeded events, after the generated ones. */
function curatedEvent(spec: CuratedEventSpec, index: number, rng: Rng): SeededEvent {
  const exhibitorCount = rng.int(24, 70);
  return {
    id: String(8450 + index),
    eventId: String(26855 + index * 11),
    name: spec.name,
    nickname: null,
    description: spec.description,
    url: `https://events.example/${slug(spec.name)}`,
    dateStart: spec.dateStart,
    dateEnd: spec.dateEnd,
    venue: spec.place.venue,
    city: spec.place.city,
    region: spec.place.region,
    country: spec.place.country,
    exhibitorCount,
    personnelCount: Math.round(exhibitorCount * 1.2),
    attendeeCount: rng.int(2_000, 25_000),
    hasVisitors: index % 3 === 1,
    sponsorMatchStarred: index % 5 === 0 ? 1 : 0,
    image: null,
    eventType: spec.kind === 'Conference' || spec.kind === 'Summit' ? 'Conference' : 'Trade Show',
    quality: 'high',
    topics: [spec.topic],
    fit: fitFor(spec.band, rng),
    recommendationProcessing: false,
    exhibitorIds: [],
    personnelIds: [],
  };
}

/** A show's exhibitors: companies of its own trade first (payments for a fintech show), then others. */
function exhibitorsFor(event: SeededEvent, exhibitors: SeededExhibitor[], rng: Rng): SeededExhibitor[] {
  const trade = event.topics[0] === 'Fintech' ? /payments|financial/i : /health/i;
  const open = exhibitors.filter((x) => x.companyName !== KNOWN_COMPANY_NAME);
  const own = rng.sample(
    open.filter((x) => trade.test(`${x.companyName} ${x.industry}`)),
    20,
  );
  const rest = rng.sample(
    open.filter((x) => !own.includes(x)),
    event.exhibitorCount - own.length,
  );
  return [...own, ...rest];
}

/** Adds the curated shows with their exhibitors and people; its own rng leaves the generated data be. */
function addCuratedShows(seed: Omit<Seed, 'agentFiles'>, today: string, names: readonly string[]): void {
  const rng = createRng(20_261_128);
  for (const spec of curatedEventSpecs(today)) {
    const event = curatedEvent(spec, seed.events.length, rng);
    const chosen = exhibitorsFor(event, seed.exhibitors, rng);
    for (const exhibitor of chosen) {
      exhibitor.eventIds.push(event.id);
      event.exhibitorIds.push(exhibitor.id);
    }
    for (let k = 0; k < event.personnelCount; k += 1) {
      const exhibitor = rng.chance(0.8) ? rng.pick(chosen) : undefined;
      const person = makePerson(rng, seed.personnel.length, rng.pick(names), event, exhibitor, []);
      seed.personnel.push(person);
      event.personnelIds.push(person.id);
    }
    seed.events.push(event);
  }
}

function sourceTypesFor(rng: Rng, hasExhibitor: boolean, hasVisitors: boolean): SourceType[] {
  const types: SourceType[] = [];
  if (hasExhibitor) types.push('exhibitor');
  if (!hasExhibitor || rng.chance(0.3)) types.push('social');
  if (hasVisitors && rng.chance(0.35)) types.push('visitors');
  return types;
}

export function makePerson(
  rng: Rng,
  n: number,
  fullName: string,
  event: SeededEvent,
  exhibitor: SeededExhibitor | undefined,
  otherEvents: SeededEvent[],
): SeededPersonnel {
  const id = String(100001 + n);
  const sourceType = sourceTypesFor(rng, exhibitor !== undefined, event.hasVisitors);
  const department = rng.pick(DEPARTMENTS);
  const identity: PersonnelIdentity[] = [];
  if (sourceType.includes('exhibitor')) identity.push('exhibitor_employee');
  if (sourceType.includes('visitors')) identity.push('visitor');
  const attendance = identity.length > 0 ? [{ eventId: event.id, identity }] : [];
  if (identity.length > 0) {
    for (const other of otherEvents) attendance.push({ eventId: other.id, identity: ['exhibitor_employee'] });
  }
  const [first = 'x', last = 'y'] = fullName.toLowerCase().split(' ');
  const domain = exhibitor?.domain ?? 'mail.example';
  return {
    id,
    fullName,
    title: `${rng.pick(ROLES)} ${department}`,
    department,
    seniorityLevel: rng.pick(SENIORITY),
    linkedinUrl: `https://www.linkedin.com/in/${slug(fullName)}-${id}`,
    companyName: exhibitor?.companyName ?? null,
    exhibitorId: exhibitor?.id ?? null,
    sourceType,
    eventId: event.id,
    attendance,
    linked: n % 17 !== 5,
    emailFindable: n % 8 !== 3,
    phoneFindable: n % 4 !== 1,
    email: `${slug(first)}.${slug(last)}.${id}@${domain}`,
    phone: `+1-555-${String(n % 10_000).padStart(4, '0')}`,
  };
}

/** Builds the whole, deterministic data set. Only dates depend on `today`. */
export function createSeed(today: string): Seed {
  const rng = createRng(20_260_910);
  const exhibitors = buildExhibitors(rng);
  const events = buildEvents(today, rng);
  const known = exhibitors.find((e) => e.companyName === KNOWN_COMPANY_NAME);
  const personnel: SeededPersonnel[] = [];
  const names = FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`));
  const future = events.filter(
    (e) => e.id !== BIG_EVENT_ID && e.personnelCount > 0 && e.dateStart > addDays(today, 10),
  );
  const janeEvents = new Set([BIG_EVENT_ID, ...future.slice(0, 2).map((e) => e.id)]);
  const acmeEvents = new Set([BIG_EVENT_ID, ...future.slice(2, 6).map((e) => e.id)]);

  for (const event of events) {
    let chosen = rng.sample(exhibitors, event.exhibitorCount);
    if (known && acmeEvents.has(event.id) && !chosen.includes(known) && chosen.length > 0) {
      chosen = [known, ...chosen.slice(1)];
    }
    for (const exhibitor of chosen) {
      exhibitor.eventIds.push(event.id);
      event.exhibitorIds.push(exhibitor.id);
    }
    for (let k = 0; k < event.personnelCount; k += 1) {
      const exhibitor = chosen.length > 0 && rng.chance(0.75) ? rng.pick(chosen) : undefined;
      const picked = rng.pick(names); // always drawn, so later records do not depend on `today`
      const name = janeEvents.has(event.id) && k === 0 ? KNOWN_PERSON_NAME : picked;
      const others = rng.chance(0.25) ? rng.sample(events, 2).filter((e) => e.id !== event.id) : [];
      const person = makePerson(rng, personnel.length, name, event, exhibitor, others);
      if (name === KNOWN_PERSON_NAME && person.attendance.length === 0) {
        person.attendance.push({ eventId: event.id, identity: ['exhibitor_employee'] });
      }
      personnel.push(person);
      event.personnelIds.push(person.id);
    }
  }
  addCuratedShows({ events, exhibitors, personnel }, today, names);
  return { events, exhibitors, personnel, agentFiles: buildAgentFiles(today) };
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
