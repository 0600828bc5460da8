import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import type { JobContext } from '../jobs.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { errorMessage } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import type { ListenerDeps } from './index.ts';
import { EventIdSchema, PersonnelIdSchema } from '../../domain/ids.ts';

const EventValue = z.object({ eventId: EventIdSchema });
const PeopleValue = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
});
const CommandValue = z.object({ text: z.string().min(1).max(5000) });
const PageValue = z.object({
  list: z.string(),
  query: z.record(z.string(), z.unknown()),
  page: z.number().int().min(1),
});

/** Buttons that stand for an `/events` command: the worker runs them exactly as if typed. */
const AS_COMMAND: Record<string, (value: unknown) => string> = {
  [ACTION_IDS.fitUnlock]: (value) => `unlock ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.listUnlock]: (value) => `unlock ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.digestUnlock]: (value) => `unlock ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.fitExhibitors]: (value) => `exhibitors ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.fitPeople]: (value) => `people ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.fitRecommend]: (value) => `recommend ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.digestFit]: (value) => `fit ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.eventFit]: (value) => `fit ${EventValue.parse(value).eventId}`,
  [ACTION_IDS.peopleEmails]: (value) => `emails ${PeopleValue.parse(value).personnelIds.join(' ')}`,
  [ACTION_IDS.peoplePhones]: (value) => `phones ${PeopleValue.parse(value).personnelIds.join(' ')}`,
  [ACTION_IDS.confirmRestart]: (value) => CommandValue.parse(value).text,
};

export function contextOf(body: BlockAction): JobContext {
  return {
    teamId: body.team?.id ?? body.user.team_id ?? 'unknown',
    channelId: body.channel?.id ?? body.container.channel_id,
    userId: body.user.id,
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
    ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
  };
}

export function parseValue(action: ButtonAction): unknown {
  try {
    return JSON.parse(action.value ?? '');
  } catch {
    return undefined;
  }
}

/** A button whose value no longer parses (an old card, a changed format). */
const outOfDate = async (respond: RespondFn) => {
  await respond({
    response_type: 'ephemeral',
    replace_original: false,
    ...errorMessage('This button is out of date. Run the command again.'),
  });
};

export function registerButtonActions(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^(${Object.keys(AS_COMMAND).join('|').replace(/\./g, '\\.')})$`),
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const toCommand = AS_COMMAND[action.action_id];
      let text: string;
      try {
        text = toCommand ? toCommand(parseValue(action)) : '';
      } catch {
        return outOfDate(respond);
      }
      // A button on a public card answers in its thread, for everyone; on a private one, privately.
      const publicCard = body.container.is_ephemeral !== true ? body.message?.ts : undefined;
      await deps.dispatch({
        kind: 'command',
        id: `button:${body.trigger_id}`,
        text,
        context: {
          ...contextOf(body),
          messageTs: undefined,
          ...(publicCard ? { threadTs: publicCard } : {}),
        },
      });
    }),
  );

  // Previous / Next: the worker re-renders the same message with the other page.
  app.action<BlockAction<ButtonAction>>(
    /^list\.page/,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = PageValue.safeParse(parseValue(action));
      if (!value.success) {
        return outOfDate(respond);
      }
      await deps.dispatch({
        kind: 'page',
        id: `page:${body.trigger_id}`,
        ...value.data,
        context: contextOf(body),
      });
    }),
  );

  // Show all on a card naming many people: their list, privately, leaving the card as it is.
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.showAllPeople,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = PageValue.safeParse(parseValue(action));
      if (!value.success) return outOfDate(respond);
      await deps.dispatch({
        kind: 'page',
        id: `people:${body.trigger_id}`,
        ...value.data,
        fresh: true,
        context: { ...contextOf(body), messageTs: undefined },
      });
    }),
  );

  // "Share in channel" on a private answer: the worker posts it for everyone and removes the private one.
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.shareInChannel,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const share = z.union([CommandValue, PageValue]).safeParse(parseValue(action));
      if (!share.success) {
        return outOfDate(respond);
      }
      await deps.dispatch({
        kind: 'share',
        id: `share:${body.trigger_id}`,
        share: share.data,
        context: { ...contextOf(body), messageTs: undefined, sharedBy: body.user.id },
      });
    }),
  );
}
