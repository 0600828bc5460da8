import { describe, expect, it } from 'vitest';
import type { Pool, Rendered } from '../../../support/hostile-fixtures.ts';
import { WATCH_AND_PLAN_BUILDERS } from '../../../support/hostile-views/hostile-builders.ts';
import { CARD_BUILDERS } from '../../../support/hostile-views/hostile-card-builders.ts';
import { MORE_BUILDERS } from '../../../support/hostile-views/hostile-more-builders.ts';
import { PLAN_COST_BUILDERS } from '../../../support/hostile-views/hostile-plan-cost-builders.ts';
import { WATCH_SHOWS_BUILDERS } from '../../../support/hostile-views/hostile-watch-shows-builders.ts';

/*
 * The words check (issue 41): every view builder of the hostile-text test, the plan's canvas and the
 * CSV headers, rendered with names that hold `&`, `<` and `>` as real names do: no HTML entity in
 * plain text (Slack shows it as typed), no doubled parenthetical, no orphan punctuation or empty bold,
 * and no count of one with a plural noun (every count goes through the one plural rule).
 */

const BUILDERS = {
  ...WATCH_AND_PLAN_BUILDERS,
  ...CARD_BUILDERS,
  ...MORE_BUILDERS,
  ...PLAN_COST_BUILDERS,
  ...WATCH_SHOWS_BUILDERS,
};

/** Names as users and the service write them, `&` and angle brackets included. */
const names: Pool = (index) => `Banking & Fintech ${index} <Berlin>`;

/** Every text object of a block tree, by type. */
function textsOf(node: unknown, out: { plain: string[]; mrkdwn: string[] }) {
  if (Array.isArray(node)) for (const item of node) textsOf(item, out);
  if (node === null || typeof node !== 'object') return out;
  const record = node as Record<string, unknown>;
  if (typeof record.text === 'string' && (record.type === 'plain_text' || record.type === 'mrkdwn'))
    (record.type === 'plain_text' ? out.plain : out.mrkdwn).push(record.text);
  for (const [key, value] of Object.entries(record)) if (key !== 'value') textsOf(value, out);
  return out;
}

/** Plural nouns the views count: `1 credits` is a count that skipped the plural rule. */
const PLURAL_NOUNS =
  'credits|entries|shows|accounts|exhibitors|people|contacts|charges|events|tasks|matches|employees|attendees|targets|competitors|confirmations|channels|rows|results|days|hours|minutes';
const WORD_PROBLEMS: [string, RegExp][] = [
  ['a doubled parenthetical', /(\([^()]+\))\s*\1/],
  ['an orphan comma', /: ,|,\s*(?:$|\n|[.;:)])/m],
  ['an empty parenthetical', /\(\s*\)/],
  ['an empty bold', /(?<![*\w])\*\*(?![*\w])/],
  ['a count of one with a plural noun', new RegExp(`(?<![\\d.,])\\b1 (?:${PLURAL_NOUNS})\\b`)],
];

function wordProblems(rendered: Rendered): string[] {
  const blocks = [...(rendered.messages ?? []).map((message) => message.blocks), rendered.blocks ?? []];
  const { plain, mrkdwn } = textsOf(blocks, { plain: [], mrkdwn: [] });
  const texts = [
    ...(rendered.messages ?? []).map((message) => message.text),
    ...mrkdwn,
    ...plain,
    ...(rendered.mrkdwn ?? []),
    ...(rendered.canvas ? [rendered.canvas.markdown] : []),
    ...(rendered.csv ? [rendered.csv.split('\r\n')[0] ?? ''] : []),
  ];
  const problems = plain
    .filter((text) => /&(?:amp|lt|gt);/.test(text))
    .map((text) => `an HTML entity in plain text: ${text}`);
  for (const text of texts)
    for (const [problem, pattern] of WORD_PROBLEMS)
      if (pattern.test(text)) problems.push(`${problem}: ${pattern.exec(text)?.input.slice(0, 200) ?? ''}`);
  return problems;
}

describe('the words of every view', () => {
  it('are clean: no entity in plain text, no doubled or empty parenthetical, no orphan comma or empty bold, plurals by the rule', () => {
    // Act
    const problems = Object.entries(BUILDERS).flatMap(([name, build]) =>
      wordProblems(build(names)).map((problem) => `${name}: ${problem}`),
    );

    // Assess
    expect(problems).toEqual([]);
  });
});
