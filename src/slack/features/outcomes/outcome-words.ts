import { OUTCOME_LIMITS } from '../../../domain/outcomes.ts';
import { LEAD_GRADES, OUTCOME_KINDS, type OutcomeKind } from '../../../domain/ports/records.ts';

/** How `/events outcome` is written, and what its card and refusals call each kind. */

export const OUTCOME_USAGE =
  'outcome <event id> <kind> <account> [amount] [note] | outcome edit <entry id> <kind> <account> [amount] [note] | outcome delete <entry id>';
export const OUTCOME_EXAMPLE = 'outcome 26855 lead B "Acme Robotics" met their CTO at the booth';

/** The kinds and what each takes, as help and every refusal say it. */
export const kindsWords = () =>
  `Kinds: meeting-booked, meeting-held, lead <grade ${LEAD_GRADES.join('/')}>, opportunity <amount>, won <amount>.`;

export const outcomeUsage = () =>
  `Give the show, the kind and the account: \`${OUTCOME_EXAMPLE}\`, \`outcome 26855 won 48,000 EUR Globex\`. ${kindsWords()} ` +
  `An account of several words goes in quotes; an amount is in the plan's currency (\`plan currency EUR\`); the rest is a note (up to ${OUTCOME_LIMITS.noteChars} characters).`;

/** What the card calls a kind. */
export const KIND_LABELS: Record<OutcomeKind, string> = {
  'meeting-booked': 'Meeting booked',
  'meeting-held': 'Meeting held',
  lead: 'Lead',
  opportunity: 'Opportunity',
  won: 'Won',
};

export const isKindWord = (word: string) => (OUTCOME_KINDS as readonly string[]).includes(word.toLowerCase());
