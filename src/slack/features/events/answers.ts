import { utcDate } from '../../../time/local-time.ts';
import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import { briefCard } from './brief.ts';
import type { EVENT_COMMANDS } from './commands.ts';
import { eventCard } from './event-card.ts';
import { fitCard } from './fit-card.ts';

/** The events room's answers: one event's card, its fit, its brief; each free, with Share in channel. */
export function eventAnswers({ deps: { eis, now }, answer }: AnswerTools): Answers<typeof EVENT_COMMANDS> {
  return {
    show: async ({ eventId }, context, text) =>
      answer(context, eventCard(await eis.events.detail(eventId), utcDate(now())), { text }),
    fit: async ({ eventId }, context, text) => {
      const [fit, detail] = await Promise.all([
        eis.events.fitScore(eventId),
        eis.events.detail(eventId).catch(() => null),
      ]);
      const name = detail?.name ?? undefined;
      const today = utcDate(now());
      const card = fitCard(fit, {
        hasVisitors: detail?.hasVisitors ?? null,
        today,
        ...(name ? { name } : {}),
      });
      return answer(context, card, { text });
    },
    brief: async ({ eventId }, context, text) =>
      answer(context, briefCard(await eis.events.brief(eventId), utcDate(now())), { text }),
  };
}
