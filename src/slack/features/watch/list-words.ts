import { WATCH_LIMITS } from '../../../domain/ports/watch.ts';

/** Counts as users read them (`1,000`). */
export const formatted = (count: number) => count.toLocaleString('en-US');

/** Adding would take the channel past its limit: nothing was added, and what to do instead. */
export const overLimitWords = (watched: number, adding: number, verb: 'adding' | 'importing') =>
  `This channel watches ${formatted(watched)} accounts; ${verb} ${formatted(adding)} more would pass the limit of ` +
  `${formatted(WATCH_LIMITS.accountsPerChannel)}. Nothing was added: remove some with \`/events watch remove <name>\`, ` +
  `or ${verb === 'adding' ? 'add' : 'import'} fewer.`;

/** More accounts than one `add` takes: nothing was added, and the import form to use instead. */
export const tooManyToAddWords = (listed: number) =>
  `You listed ${formatted(listed)} accounts; \`watch add\` takes up to ${formatted(WATCH_LIMITS.accountsPerAdd)} at once. ` +
  `Nothing was added. For more, paste them into the form of \`/events watch import\` (up to ${formatted(WATCH_LIMITS.accountsPerChannel)} lines).`;
