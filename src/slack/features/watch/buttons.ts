import * as z from 'zod';
import { EventIdSchema } from '../../../domain/ids.ts';
import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { regionWord, type ValueCheck, whenWord } from '../../kit/filter-reading.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

/** What a watch alert row's buttons carry: the show, the account's exhibitor record, its name. */
export const WatchRowValueSchema = z.object({
  eventId: EventIdSchema,
  exhibitorId: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  /** The account as the channel wrote it (Mute runs `/events watch mute <label>`). */
  label: z.string().min(1).max(200),
});
export type WatchRowValue = z.infer<typeof WatchRowValueSchema>;

/** What a candidate's This one button carries: the account as the channel wrote it, and the exhibitor chosen. */
export const WatchChoiceValueSchema = z.object({
  label: z.string().min(1).max(200),
  exhibitorId: z.string().regex(/^\d{1,20}$/),
});
export type WatchChoiceValue = z.infer<typeof WatchChoiceValueSchema>;

/** Previous / Next of a watch page: which page of `watch shows` (its filters) or of `watch list`. */
export const WatchPageValueSchema = z.object({
  view: z.enum(['shows', 'list']),
  page: z.number().int().min(1).max(1000),
  /** The filters as the parser kept them (checked again as it checks them when the button runs). */
  region: z.string().min(1).max(40).optional(),
  when: z.string().min(1).max(20).optional(),
});
export type WatchPageValue = z.infer<typeof WatchPageValueSchema>;

/** The `/events` words a page button stands for (its Share and its answers name it so). */
export function watchPageWords(value: WatchPageValue): string {
  if (value.view === 'list') return `watch list ${value.page}`;
  const filters = [value.region && `region:${value.region}`, value.when && `when:${value.when}`];
  return ['watch shows', String(value.page), ...filters].filter(Boolean).join(' ');
}

/** Show all: a list page's button carries its page; an alert's carries `alert` (its rows, from its thread). */
export const ShowAllValueSchema = z.object({
  page: z.number().int().min(1).max(1000).optional(),
  alert: z.literal(true).optional(),
});

/** A filter a page button carries, checked as the parser checks it (throws when it does not read). */
function checked(check: ValueCheck, key: string, value: string): string {
  const read = check(value, key);
  if ('problem' in read) throw new Error(`a page button's ${key} does not read`);
  return read.value;
}

/** The account as the channel wrote it, spaced as a typed command would be. */
const accountOf = (label: string) => {
  const account = label.replace(/\s+/g, ' ').trim();
  if (!account) throw new Error('a watch button names no account');
  return account;
};

/**
 * The watch buttons that stand for `/events` commands: an alert row's Fit, People and Mute, Show all,
 * Export CSV, Previous / Next of `watch shows` and `watch list`, and an ambiguous account's This one.
 */
export const WATCH_BUTTONS = {
  [ACTION_IDS.watchFit]: (value) => {
    const { eventId } = WatchRowValueSchema.parse(value);
    return runs({ name: 'fit', eventId }, `fit ${eventId}`);
  },
  [ACTION_IDS.watchPeople]: (value) => {
    const { eventId, exhibitorId } = WatchRowValueSchema.parse(value);
    if (!exhibitorId) return runs({ name: 'people', eventId }, `people ${eventId}`);
    const words = `people ${eventId} exhibitor:${exhibitorId}`;
    return runs({ name: 'people', eventId, filters: { exhibitor: exhibitorId } }, words);
  },
  [ACTION_IDS.watchMute]: (value) => {
    const account = accountOf(WatchRowValueSchema.parse(value).label);
    return runs({ name: 'watch-mute', account }, `watch mute ${account}`);
  },
  [ACTION_IDS.watchShowAll]: (value) => {
    const { alert, page = 1 } = ShowAllValueSchema.parse(value);
    return alert
      ? runs({ name: 'watch-alert' }, 'watch alert')
      : runs({ name: 'watch-list', page }, `watch list ${page}`);
  },
  [ACTION_IDS.watchExport]: () => runs({ name: 'watch-export' }, 'watch export'),
  [ACTION_IDS.watchPagePrevious]: (value) => watchPageRun(WatchPageValueSchema.parse(value)),
  [ACTION_IDS.watchPageNext]: (value) => watchPageRun(WatchPageValueSchema.parse(value)),
  [ACTION_IDS.watchChoose]: (value) => {
    const choice = WatchChoiceValueSchema.parse(value);
    const account = accountOf(choice.label);
    const words = `watch choose ${choice.exhibitorId} ${account}`;
    return runs({ name: 'watch-choose', exhibitorId: choice.exhibitorId, account }, words);
  },
} satisfies ButtonCommands;

/** Previous / Next: that page of `watch list`, or of `watch shows` with its filters. */
function watchPageRun(value: WatchPageValue) {
  const words = watchPageWords(value);
  if (value.view === 'list') return runs({ name: 'watch-list', page: value.page }, words);
  const { page, region, when } = value;
  return runs(
    {
      name: 'watch-shows',
      page,
      ...(region === undefined ? {} : { region: checked(regionWord, 'region', region) }),
      ...(when === undefined ? {} : { when: checked(whenWord, 'when', when) }),
    },
    words,
  );
}
