import { recommendedEventList } from './recommended-events-views.ts';
import { defineList, text } from './definition.ts';
import {
  asCompanyUrl,
  dateWord,
  labelsOf,
  numberOf,
  readFilterWords,
  wholeNumberWord,
} from './filter-words.ts';

/** `/events shows-for`: trade shows recommended for a company or an audience (issue 14), free, paged. */

/** The apply-recommended-events workflow's filters; labels comma-separated. */
const FILTERS = {
  country: {},
  city: {},
  region: {},
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
  shape: { companyUrl: text, targetAudience: text },
  filters: FILTERS,
  read: (query, page, pageSize, eis) =>
    eis.recommendations.events({
      companyUrl: query.companyUrl,
      targetAudience: query.targetAudience,
      page,
      pageSize,
      country: query.country,
      city: query.city,
      region: query.region,
      category: labelsOf(query.category),
      dateStartFrom: query.from,
      dateStartTo: query.to,
      industry: query.industry,
      targetIndustry: labelsOf(query['target-industry']),
      targetManagementLevel: labelsOf(query.level),
      targetJobTitles: labelsOf(query.title),
      attendeeCountMin: numberOf(query['attendees-min']),
      attendeeCountMax: numberOf(query['attendees-max']),
    }),
  card: ({ page, query }) => recommendedEventList({ page, query }),
  command: {
    usage:
      'shows-for <company url | audience text> [country:X] [city:X] [region:X] [category:X] [from:YYYY-MM-DD] [to:YYYY-MM-DD] [industry:X] [target-industry:X] [level:X] [title:X] [attendees-min:N] [attendees-max:N]',
    example: 'shows-for https://acme.example country:Germany from:2027-01-01',
    summary: 'Trade shows recommended for a company or an audience, with scores and reasons',
    details:
      'A company website or a description of your audience, then filters. `category:`, `target-industry:`, ' +
      '`level:` (management levels to meet) and `title:` (job titles to meet) take comma-separated labels.',
    // `<company url | audience text> [key:value…]`: the profile recommended events are matched against.
    parse(words, filters) {
      const read = readFilterWords(words, filters);
      if (read.problem) return { ok: false, problem: read.problem };
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
        filters: read.values,
      };
      return { ok: true, command };
    },
  },
});
