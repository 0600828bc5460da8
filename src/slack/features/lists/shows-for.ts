import type { RecommendedEventsInput } from '../../../eis/index.ts';
import { isInRegion, readRegion } from '../../../domain/regions.ts';
import { recommendedEventList } from './recommended-events-views.ts';
import { defineList, text } from './definition.ts';
import {
  dateWord,
  datesOfWhen,
  labelsOf,
  numberOf,
  placeProblem,
  readFilterWords,
  regionWord,
  type ValueCheck,
  whenWord,
  wholeNumberWord,
} from '../../kit/filter-reading.ts';
import { asCompanyUrl } from '../../kit/command-arguments.ts';

/** `/events shows-for`: trade shows recommended for a company or an audience (issue 14), free, paged. */

/** Recommendations read for a region: the service's best, kept to the region's countries, paged here. */
const REGION_READ_SIZE = 100;

/** `region:` as a region of the table; a state (`region:Nevada`, as it once was read) is `state:`. */
const sellerRegionWord: ValueCheck = (value, key) => {
  const read = regionWord(value, key);
  return 'problem' in read ? { problem: `${read.problem} A state or province is \`state:${value}\`.` } : read;
};

/** The apply-recommended-events workflow's filters; labels comma-separated. */
const FILTERS = {
  country: {},
  city: {},
  /** A seller's region (src/domain/regions.ts), kept here: the service knows countries only. */
  region: { check: sellerRegionWord },
  /** The service's `region`: a state or province (`Nevada`). */
  state: {},
  /** A quarter or a month, read into `from:`/`to:`. */
  when: { check: whenWord },
  category: {},
  from: { check: dateWord },
  to: { check: dateWord },
  industry: {},
  'target-industry': {},
  /** Management levels to meet. */
  level: {},
  /** Job titles to meet. */
  title: {},
  'attendees-min': { check: wholeNumberWord },
  'attendees-max': { check: wholeNumberWord },
};
export type ShowsForFilterWords = Partial<Record<keyof typeof FILTERS, string>>;
export type ShowsForCommand = {
  name: 'shows-for';
  companyUrl?: string;
  targetAudience?: string;
  filters: ShowsForFilterWords;
};

export const SHOWS_FOR = defineList({
  audience: 'anyone',
  shape: { companyUrl: text, targetAudience: text },
  filters: FILTERS,
  read: (query, page, pageSize, eis) => {
    const region = query.region === undefined ? undefined : readRegion(query.region);
    const input: RecommendedEventsInput = {
      companyUrl: query.companyUrl,
      targetAudience: query.targetAudience,
      page,
      pageSize,
      country: query.country,
      city: query.city,
      // A button from before `state:` carries the state as `region`: still read as one.
      region: query.state ?? (region ? undefined : query.region),
      category: labelsOf(query.category),
      dateStartFrom: query.from,
      dateStartTo: query.to,
      industry: query.industry,
      targetIndustry: labelsOf(query['target-industry']),
      targetManagementLevel: labelsOf(query.level),
      targetJobTitles: labelsOf(query.title),
      attendeeCountMin: numberOf(query['attendees-min']),
      attendeeCountMax: numberOf(query['attendees-max']),
    };
    return eis.recommendations.events(input);
  },
  keptHere: {
    readSize: REGION_READ_SIZE,
    keeps: (query) => {
      const region = query.region === undefined ? undefined : readRegion(query.region);
      return region && ((event) => isInRegion(event.country, region));
    },
  },
  card: ({ page, query, today }) => recommendedEventList({ page, query, today }),
  command: {
    usage:
      'shows-for <company url | audience text> [country:X | region:Europe] [city:X] [state:X] [category:X] [when:Q2-2027 | from:YYYY-MM-DD to:YYYY-MM-DD] [industry:X] [target-industry:X] [level:X] [title:X] [attendees-min:N] [attendees-max:N]',
    example: 'shows-for https://acme.example region:Europe',
    summary: 'Trade shows recommended for a company or an audience, with scores and reasons',
    details:
      'A company website or a description of your audience, then filters. `category:`, `target-industry:`, ' +
      '`level:` (management levels to meet) and `title:` (job titles to meet) take comma-separated labels. ' +
      "`region:` is a seller's region (Europe, DACH, Nordics, North America, LATAM, APAC, Middle East; " +
      'multi-word names hyphenated or as they are: `region:north-america`), `state:` a state or province ' +
      '(`state:Nevada`); `when:` a quarter (`when:Q2-2027`) or a month (`when:2027-03`), instead of `from:`/`to:`.',
    // `<company url | audience text> [key:value…]`: the profile recommended events are matched against.
    parse(words, filters) {
      const read = readFilterWords(words, filters);
      if (read.problem) return { ok: false, problem: read.problem };
      const { when: _when, from: _from, to: _to, ...values } = read.values;
      const dates = datesOfWhen(read.values);
      const problem = dates.problem ?? placeProblem(values);
      if (problem) return { ok: false, problem };
      const text = read.leading;
      if (!text)
        return {
          ok: false,
          problem: 'Give a company website or a description of your audience, before the filters.',
        };
      if (text.length > 500) return { ok: false, problem: 'The description is longer than 500 characters.' };
      const url = asCompanyUrl(text);
      const command: ShowsForCommand = {
        name: 'shows-for',
        ...(url ? { companyUrl: url } : { targetAudience: text }),
        filters: {
          ...values,
          ...(dates.from ? { from: dates.from } : {}),
          ...(dates.to ? { to: dates.to } : {}),
        },
      };
      return { ok: true, command };
    },
    query: ({ companyUrl, targetAudience, filters }) => ({ companyUrl, targetAudience, ...filters }),
  },
});
