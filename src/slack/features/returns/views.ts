import type { PeriodReturn, ReturnFigures, ReturnShow } from '../../../domain/outcome-return.ts';
import { LEAD_GRADES } from '../../../domain/ports/records.ts';
import { moneyWords } from '../../kit/money-words.ts';
import { header, section } from '../../views/blocks.ts';
import { formatDateRange, plural } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';

/** The words of one return: a show's or the period's figures, in the plan's currency (`code`). */
function figuresWords(figures: ReturnFigures, code: string | undefined): Mrkdwn {
  const money = (hundredths: number) => escapeMrkdwn(moneyWords(hundredths, code));
  const split = (of: { sourced: number; influenced: number }) =>
    mk`${money(of.sourced + of.influenced)} (sourced ${money(of.sourced)}, influenced ${money(of.influenced)})`;
  const leads = joinMrkdwn(
    LEAD_GRADES.map((grade) => mk`${figures.leads[grade]} ${escapeMrkdwn(grade)}`),
    ', ',
  );
  const { cost, ratios } = figures;
  const costWords =
    cost.total !== null
      ? money(cost.total)
      : cost.creditsSpent !== null
        ? mk`${escapeMrkdwn(cost.creditsSpent.toLocaleString('en-US'))} credits (no credit price set)`
        : mk`unknown (the spend could not be read)`;
  const per = (value: number | undefined, what: 'meeting held' | 'opportunity') =>
    value === undefined
      ? null
      : ratios.unit === 'money'
        ? mk`${money(value)} per ${what}`
        : mk`${escapeMrkdwn(value.toLocaleString('en-US'))} credits per ${what}`;
  const times = (value: number | undefined, what: 'pipeline' | 'won') =>
    value === undefined ? null : mk`${what} ÷ cost ${escapeMrkdwn((value / 100).toFixed(2))}×`;
  const ratioWords = joinMrkdwn(
    [
      per(ratios.perMeetingHeld, 'meeting held'),
      per(ratios.perOpportunity, 'opportunity'),
      times(ratios.pipelinePerCost, 'pipeline'),
      times(ratios.wonPerCost, 'won'),
    ],
    ' · ',
  );
  return joinMrkdwn(
    [
      mk`Meetings: ${figures.meetingsBooked} booked, ${figures.meetingsHeld} held · Leads: ${leads}`,
      mk`Opportunities: ${figures.opportunities}, pipeline ${split(figures.pipeline)}`,
      mk`Won: ${figures.deals}, ${split(figures.won)}`,
      mk`Accounts met: ${figures.accountsMet} · Watched accounts met: ${figures.watched.met} of ${figures.watched.exhibiting} known to exhibit`,
      mk`Cost: ${costWords}`,
      ratioWords ? ratioWords : null,
    ],
    '\n',
  );
}

const showTitle = (show: ReturnShow) =>
  mk`*${escapeMrkdwn(show.name ?? `Show ${show.eventId}`)}* (${escapeMrkdwn(show.eventId)}, ${formatDateRange(show.dateStart, show.dateEnd)})`;

/** `return`'s answer: each show's figures, then the total of the period (a period only). */
export function returnAnswer(
  title: string,
  read: PeriodReturn,
  code: string | undefined,
  withTotal: boolean,
): SlackMessage {
  const heading = mk`Return: ${escapeMrkdwn(title)}`;
  if (read.shows.length === 0)
    return fitToLimits({
      text: heading,
      blocks: [
        header(`Return: ${title}`),
        section(
          mk`No show of the plan and no logged entry falls in ${escapeMrkdwn(title)}. Log one with \`/events outcome\`.`,
        ),
      ],
    });
  const shows = read.shows.map(({ show, figures }) =>
    section(mk`${showTitle(show)}\n${figuresWords(figures, code)}`),
  );
  const total = withTotal
    ? [section(mk`*Total, ${plural(read.shows.length, 'show')}*\n${figuresWords(read.total, code)}`)]
    : [];
  return fitToLimits({ text: heading, blocks: [header(`Return: ${title}`), ...shows, ...total] });
}
