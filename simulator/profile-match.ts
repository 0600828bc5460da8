import type { SeededEvent, SeededExhibitor } from './seed.ts';

/**
 * How the simulator ranks shows for a profile it is given (apply-recommended-events, `shows-for`):
 * a plain term match of the profile's words over each show's name, topic and description, on top of
 * the show's fit with the stored profile. Deterministic, and explainable in the reason it gives.
 */

const STOP_WORDS = new Set(
  'and are but for from into our the their them they this that who with your you sell sells selling team teams company companies people business businesses www http https com example'.split(
    ' ',
  ),
);

/** `payments` → `payment`, so a plural finds the singular and back; short words are kept whole. */
const stem = (word: string): string => (word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word);

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').join(' ')
      : '';

/**
 * The profile's words, one per stem, as written: the audience, the description, the industries, and for a website the host's
 * own words and, when the site is a seeded company's, that company's industry and description.
 */
export function profileWords(
  input: Record<string, unknown>,
  exhibitors: readonly SeededExhibitor[],
): string[] {
  const url = textOf(input.company_url);
  const host = url ? hostOf(url) : '';
  const owner = host ? exhibitors.find((x) => x.domain === host) : undefined;
  const texts = [
    input.target_audience,
    input.company_description,
    input.industry,
    input.target_industry,
    host.split('.')[0],
    owner ? `${owner.industry} ${owner.description}` : '',
  ].map(textOf);
  const byStem = new Map<string, string>();
  for (const word of wordsOf(texts.join(' '))) if (!byStem.has(stem(word))) byStem.set(stem(word), word);
  return [...byStem.values()];
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

export interface ShowMatch {
  /** 0–1, two decimals, as the service's `match_score`. */
  score: number;
  /** The profile's words the show holds, in the profile's order. */
  matched: string[];
  /** 0–1: how well the words found the show. */
  relevance: number;
}

/** One show against the profile's words; with no words, its fit with the stored profile alone. */
export function matchShow(event: SeededEvent, words: readonly string[]): ShowMatch {
  const fit = event.fit.score / 10;
  const title = `${event.name} ${event.topics.join(' ')}`.toLowerCase();
  const body = event.description.toLowerCase();
  let points = 0;
  const matched: string[] = [];
  for (const word of words) {
    const root = stem(word);
    const weight = title.includes(root) ? 2 : body.includes(root) ? 1 : 0;
    if (weight > 0) matched.push(word);
    points += weight;
  }
  // A word in the name or topic counts double; a profile of one word is found by that word alone.
  const relevance = Math.min(1, points / Math.min(3, 1.5 * words.length));
  const raw = words.length === 0 ? 0.1 + 0.85 * fit : 0.12 + 0.6 * relevance + 0.26 * fit;
  return { score: Math.round(Math.min(0.98, raw) * 100) / 100, matched, relevance };
}
