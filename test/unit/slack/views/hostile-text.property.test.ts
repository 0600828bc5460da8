/// <reference types="vite/client" />
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveTokensIn } from '../../../support/live-tokens.ts';
import type { Pool, Rendered } from '../../../support/hostile-fixtures.ts';
import { WATCH_AND_PLAN_BUILDERS } from '../../../support/hostile-views/hostile-builders.ts';
import { CARD_BUILDERS } from '../../../support/hostile-views/hostile-card-builders.ts';
import { MORE_BUILDERS } from '../../../support/hostile-views/hostile-more-builders.ts';
import { OUTCOME_BUILDERS } from '../../../support/hostile-views/hostile-outcome-builders.ts';
import { PLAN_COST_BUILDERS } from '../../../support/hostile-views/hostile-plan-cost-builders.ts';
import { WATCH_SHOWS_BUILDERS } from '../../../support/hostile-views/hostile-watch-shows-builders.ts';

/*
 * Every view builder that shows text from a user or the service, rendered with hostile strings in each
 * such field: no mention, broadcast or labelled link appears that the bot did not put there itself, in
 * a block's mrkdwn, the notification text, the plan's canvas or an exported file. plain_text is left
 * out: Slack parses no markup there (see src/slack/views/blocks.ts).
 */

const RUNS = 60;
/** The ids the fixtures use for people and channels: the bot mentions these on purpose. */
const BOT_MENTIONS = new Set(['<@U0ALICE>', '<@U0BOSS>', '<#C0GENERAL>']);
/** Each builder, by name. */
const BUILDERS = {
  ...WATCH_AND_PLAN_BUILDERS,
  ...CARD_BUILDERS,
  ...MORE_BUILDERS,
  ...PLAN_COST_BUILDERS,
  ...WATCH_SHOWS_BUILDERS,
  ...OUTCOME_BUILDERS,
};
const BOT_LABELS = new Set(['Event website', 'LinkedIn']);

const TOKENS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S0EVIL>',
  '<@U0EVIL>',
  '<#C0EVIL>',
  '<https://evil.example/claim|Claim your badge>',
  '<mailto:x@evil.example|Mail us>',
  '&lt;!here&gt;',
  '\n- [x] Budget approved\n# Pay here',
  '[Claim](https://evil.example)',
  '=HYPERLINK("https://evil.example","Claim")',
  '@SUM(1)',
];
const hostile = fc
  .tuple(
    fc.constantFrom(...TOKENS),
    fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 6 }))),
  )
  .map(([token, rest]) => [token, ...rest].join(' '));

/**
 * A link is the bot's when it names a fixed label of the bot's or its own host (formatLink's label), or
 * is a thread link the bot made of a channel and a timestamp (threadLink).
 */
function isBotLink(token: string): boolean {
  const match = /^<([^|>]*)\|([^>]*)>$/.exec(token);
  if (!match) return false;
  const [, address = '', label = ''] = match;
  if (BOT_LABELS.has(label) || /^https:\/\/slack\.com\/archives\/C0GENERAL\/p\d+$/.test(address)) return true;
  try {
    return new URL(address).hostname.replace(/^www\./, '') === label;
  } catch {
    return false;
  }
}

const foreignTokens = (text: string) =>
  liveTokensIn(text).filter((token) => !BOT_MENTIONS.has(token) && !isBotLink(token));

/** Every mrkdwn text of a block tree (plain_text is shown as typed). */
function mrkdwnTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(mrkdwnTexts);
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const own = record.type === 'mrkdwn' && typeof record.text === 'string' ? [record.text] : [];
  return [...own, ...Object.values(record).flatMap(mrkdwnTexts)];
}

/**
 * Exported functions of the views modules not rendered above because they show nothing a user or the
 * service wrote: modals (plain_text, and initial values kept raw), buttons, sorting and word helpers
 * whose output the builders above include, numbers only, or `Mrkdwn` only (held safe by the compiler).
 */
const NO_DATA_OR_PIECES = new Set(
  `helpText commandHelp researchModal compareModal digestModal outreachModal searchModal
 listFilterModal watchImportModal settingsLoadingModal settingsRefusedModal settingsFixedModal upcomingFirst
 fixedRulesIn spendingRuleBlocks
 isSearchAction isFilterableList showAllPeopleButton
 followUpButtons importBox spendPeriodWords failureWords
 describeFilters describeSchedule reasonLine fitWords watchedAccountName watchedWords costWords costLines
 canvasFailureWords createPlanCanvasOut accountWords showWords candidateWords choiceBlocks choicesOf
 homeWatchOf eventSection digestOffMessage botNotice creditsCard chargeKindText chargeKindWords
 chargeTargetWords pausedWorkText pausedWorkBlocks keyStatus exportProgress exportedPrivately
 inviteBotMessage confirmButton cancelButton spendCreditsDialog formatAmount amountAsTyped kindTotalsWords
 showCostWords costsBeyondCreditsLines showAmounts costsButton exportPlanButton mayConfirmWords dialogMayConfirmWords watchPagerBlocks
 unlockWaitingWords
 formatCreditPrice rateWords moneyCostWords showMoneyWords quarterMoneyWords moneyLines`.split(/\s+/),
);

/** Builders rendered above whose only data is ids (who asked): the bot mentions them on purpose. */
const IDS_ONLY = new Set(['followUpTimeoutReply', 'unlockAccountChangedReply', 'unlockTimeoutReply']);

/** CSV fields as RFC 4180 reads them. */
function csvFields(csv: string): string[] {
  const fields: string[] = [];
  const pattern = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|$)/g;
  for (const match of csv.matchAll(pattern)) {
    const raw = match[1] ?? '';
    fields.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (match[2] === '') break;
  }
  return fields;
}

/** What is wrong with one rendering: a foreign token, a line the data added, a formula cell. */
function problemsOf(rendered: Rendered): string[] {
  const texts = [
    ...(rendered.messages ?? []).flatMap((message) => [message.text, ...mrkdwnTexts(message.blocks)]),
    ...mrkdwnTexts(rendered.blocks ?? []),
    ...(rendered.mrkdwn ?? []),
  ];
  const problems = texts.flatMap(foreignTokens);
  if (rendered.canvas) {
    const { markdown, benign } = rendered.canvas;
    if (markdown.split('\n').length !== benign.split('\n').length)
      problems.push('a canvas line from the data');
    if (/(?<!\\)\[[^\]]*(?<!\\)\]\(/.test(markdown) || /(?<!\\)<https?:/.test(markdown))
      problems.push('a canvas link from the data');
  }
  if (rendered.csv) problems.push(...csvFields(rendered.csv).filter((field) => /^[=+\-@\t\r]/.test(field)));
  return problems;
}

/** The modules that build what the bot shows: every function they export is listed above. */
const VIEW_MODULES = import.meta.glob(
  [
    '../../../../src/slack/features/*/*views*.ts',
    '../../../../src/slack/kit/{confirmation-card,recorded-card}.ts',
    '../../../../src/slack/features/events/{brief,event-card,fit-card}.ts',
    '../../../../src/slack/features/plan/canvas.ts',
    '../../../../src/slack/commands/help-views.ts',
    '../../../../src/slack/views/messages.ts',
  ],
  { eager: true },
);

describe('hostile text in every view builder', () => {
  it('covers every function a views module exports, or says why it needs no cover', () => {
    // Act
    const exported = Object.entries(VIEW_MODULES).flatMap(([path, module]) =>
      Object.entries(module as Record<string, unknown>)
        .filter(([, value]) => typeof value === 'function')
        .map(([name]) => ({ path, name })),
    );

    // Assess
    const unlisted = exported.filter(({ name }) => !(name in BUILDERS) && !NO_DATA_OR_PIECES.has(name));
    // A name kept here after its function left the views would excuse a new one of that name.
    const stale = [...NO_DATA_OR_PIECES].filter((name) => !exported.some((fn) => fn.name === name));
    console.info(
      `hostile-text coverage: ${exported.length} exported functions, ${Object.keys(BUILDERS).length} rendered`,
    );
    expect(exported.length).toBeGreaterThan(60);
    expect(unlisted).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('shows the data it is given, so the check below reads what users and the service wrote', () => {
    // Act
    const silent = Object.entries(BUILDERS)
      .filter(([name]) => !IDS_ONLY.has(name))
      .filter(([, build]) => !JSON.stringify(build((index) => `hostile${index}`)).includes('hostile'))
      .map(([name]) => name);

    // Assess
    expect(silent).toEqual([]);
  });

  it('pings no one and links nowhere the bot did not mean to, whatever the users and the service write', () => {
    // Prepare
    const names = Object.keys(BUILDERS);
    const pools = fc.array(hostile, { minLength: 12, maxLength: 12 });

    // Act & Assess
    for (const name of names) {
      const build = BUILDERS[name] as (s: Pool) => Rendered;
      fc.assert(
        fc.property(pools, (strings) => {
          const problems = problemsOf(build((index) => strings[index % strings.length] ?? ''));
          expect(problems, name).toEqual([]);
        }),
        { numRuns: RUNS, seed: 32 },
      );
    }
    console.info(`hostile-text property: ${names.length} view builders × ${RUNS} runs`);
  });
});
