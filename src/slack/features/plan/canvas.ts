import type { WebClient } from '@slack/web-api';
import type { PlanCanvasOut } from '../../../domain/plan/index.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { isPastShow } from '../../../domain/past-show.ts';
import { formatDateRange, PAST_WORD } from '../../views/format.ts';
import { costLines, costWords, fitWords, type PlanView, watchedWords } from './views.ts';
import { showName } from './plan-words.ts';
import { costsBeyondCreditsLines, showCostWords } from './cost-views.ts';
import { moneyLines, showMoneyWords } from './money-views.ts';
import { watchedShowsCanvasLines } from '../watch/index.ts';

export const PLAN_CANVAS_TITLE = 'Event plan';

/**
 * Canvas markdown: a value stays on its line (a line break would start a list item or a heading of the
 * data's own) and a character that would start markup (emphasis, heading, quote, link, autolink) is
 * taken as text.
 */
const plain = (text: string) =>
  text.replace(/[\r\n\v\f\u0085\u2028\u2029]+/g, ' ').replace(/[\\`*_~#<>|[\]]/g, (c) => `\\${c}`);

/**
 * A line the bot wrote around its own command words (`/events plan cost <event id> …`): those stay
 * code spans, everything else is plain(). A kept span holds only a command's plain characters, which
 * in a code span link or ping nothing; any other backtick stays escaped.
 */
const COMMAND_SPAN = /`(\/events [A-Za-z0-9 <>._-]+)`/g;
const botWords = (text: string) =>
  text
    .split(COMMAND_SPAN)
    .map((part, index) => (index % 2 === 1 ? `\`${part}\`` : plain(part)))
    .join('');

/** The plan as the channel's canvas shows it: the shows by date, then the cost line. */
export function planCanvasMarkdown(view: PlanView): string {
  const currency = view.costsBeyondCredits?.currency ?? null;
  const moneyOf = (eventId: string) => {
    const words = showMoneyWords(eventId, view.money, currency);
    return words ? [`- ${botWords(words)}`] : [];
  };
  const shows =
    view.rows.length === 0
      ? ['No shows yet. Add one with `/events plan add <event id>`.']
      : view.rows.flatMap(({ show, ...row }) => [
          `## ${plain(showName(show))}`,
          `- ${plain(formatDateRange(show.dateStart, show.dateEnd))}${isPastShow(show, view.today) ? ` · **${PAST_WORD}**` : ''}${show.city ? ` · ${plain(show.city)}` : ''} · event ${plain(show.eventId)}`,
          `- ${plain(fitWords(row.fit))}`,
          `- ${plain(watchedWords(row.watched))}`,
          `- ${plain(costWords(row.cost))}`,
          `- ${plain(showCostWords(show.eventId, view.costsBeyondCredits))}`,
          ...moneyOf(show.eventId),
          '',
        ]);
  return [
    '# The plan of this channel',
    'Kept up to date by the bot: change it with `/events plan add <id>`, `/events plan remove <id>`, `/events plan budget <credits> <quarter>` and `/events plan cost <event id> <amount> <kind>`.',
    '',
    ...shows,
    ...watchedShowsCanvasLines(view.watchedShows, plain),
    '## Cost',
    ...costLines(view).map((line) => `- ${botWords(line)}`),
    '## Costs beyond credits',
    ...costsBeyondCreditsLines(view.costsBeyondCredits).map((line) => `- ${botWords(line)}`),
    '## Cost in money',
    ...moneyLines(view.money, currency).map((line) => `- ${botWords(line)}`),
  ].join('\n');
}

/** Slack's canvases: the channel canvas (free plans too); a channel that already has one gets a canvas tab. */
export function createPlanCanvasOut(web: Pick<WebClient, 'conversations' | 'canvases'>): PlanCanvasOut {
  const content = (markdown: string) => ({ type: 'markdown' as const, markdown });
  return {
    async create(channelId, markdown) {
      const created = await web.conversations.canvases
        .create({ channel_id: channelId, title: PLAN_CANVAS_TITLE, document_content: content(markdown) })
        .catch((error: unknown) => {
          if (slackErrorCode(error) !== 'channel_canvas_already_exists') throw error;
          return web.canvases.create({
            channel_id: channelId,
            title: PLAN_CANVAS_TITLE,
            document_content: content(markdown),
          });
        });
      if (!created.canvas_id) throw new Error('Slack created a canvas without naming it');
      return created.canvas_id;
    },
    async replace(canvasId, markdown) {
      try {
        await web.canvases.edit({
          canvas_id: canvasId,
          changes: [{ operation: 'replace', document_content: content(markdown) }],
        });
        return 'replaced';
      } catch (error) {
        // Slack's answer for a canvas that was deleted (or that the app can no longer see).
        if (slackErrorCode(error) === 'canvas_not_found') return 'gone';
        throw error;
      }
    },
  };
}

/** Why the canvas could not be updated, in words a user can act on (the plan change is saved). */
export function canvasFailureWords(error: unknown): string {
  const said = 'The plan is saved, but its canvas could not be updated';
  switch (slackErrorCode(error)) {
    case 'missing_scope':
    case 'not_allowed_token_type':
      return `${said}: this install of the app may not write canvases. A workspace admin can reinstall the app to grant it canvases (\`canvases:write\`); the canvas is made at the next change.`;
    case 'not_in_channel':
    case 'channel_not_found':
      return `${said}: the app is not in this channel. Invite it with \`/invite\`, then change the plan again.`;
    case 'team_tier_cannot_create_channel_canvases':
    case 'canvas_disabled_user_team':
    case 'canvas_creation_failed':
      return `${said}: canvases are not available in this workspace (its Slack plan or its settings). \`/events plan\` still shows the plan.`;
    case 'restricted_action':
      return `${said}: the app may no longer edit it. \`/events plan\` still shows the plan.`;
    default:
      return `${said} (Slack did not take the change). It is tried again at the next change; \`/events plan\` shows the plan meanwhile.`;
  }
}

/** Posted in the channel, once, when the plan's canvas was made again in place of a deleted one. */
export const CANVAS_RECREATED_WORDS =
  'The canvas of this channel’s plan was deleted (or the app can no longer open it), so the bot made a new one with the plan as it is now. It is kept up to date at each change of the plan.';
