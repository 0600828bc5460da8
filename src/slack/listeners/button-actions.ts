import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import {
  CommandValueSchema,
  EventValueSchema,
  ExhibitorValueSchema,
  type ListPageValue,
  ListPageValueSchema,
  PeopleValueSchema,
  ShareValueSchema,
} from '../button-values.ts';
import type { Job } from '../jobs.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { errorMessage } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import type { ListenerDeps } from './deps.ts';
import { contextOf, parseValue } from './interaction.ts';

/** `100001 100002 event:26855`: the people, and the event whose list they are on (sent as `event_id`). */
function peopleWords(value: unknown): string {
  const { personnelIds, eventId } = PeopleValueSchema.parse(value);
  return `${personnelIds.join(' ')}${eventId ? ` event:${eventId}` : ''}`;
}

/** Buttons that stand for an `/events` command: the worker runs them exactly as if typed. */
const AS_COMMAND: Record<string, (value: unknown) => string> = {
  [ACTION_IDS.fitUnlock]: (value) => `unlock ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.listUnlock]: (value) => `unlock ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.digestUnlock]: (value) => `unlock ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.fitExhibitors]: (value) => `exhibitors ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.fitPeople]: (value) => `people ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.fitRecommend]: (value) => `recommend ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.digestFit]: (value) => `fit ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.eventFit]: (value) => `fit ${EventValueSchema.parse(value).eventId}`,
  [ACTION_IDS.accountOpen]: (value) => `account ${ExhibitorValueSchema.parse(value).exhibitorId}`,
  [ACTION_IDS.searchPagePrevious]: (value) => CommandValueSchema.parse(value).text,
  [ACTION_IDS.searchPageNext]: (value) => CommandValueSchema.parse(value).text,
  [ACTION_IDS.peopleEmails]: (value) => `emails ${peopleWords(value)}`,
  [ACTION_IDS.peoplePhones]: (value) => `phones ${peopleWords(value)}`,
  [ACTION_IDS.confirmRestart]: (value) => CommandValueSchema.parse(value).text,
};

/** The thread a card's answers go in: a card posted as a reply has one already (threads are one level deep). */
function threadOf(message: BlockAction['message']): string | undefined {
  return typeof message?.thread_ts === 'string' ? message.thread_ts : message?.ts;
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
      const publicCard = body.container.is_ephemeral !== true ? threadOf(body.message) : undefined;
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
      const value = ListPageValueSchema.safeParse(parseValue(action));
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
      const value = ListPageValueSchema.safeParse(parseValue(action));
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

  registerExportAction(app, deps);

  // "Share in channel" on a private answer: the worker posts it for everyone and removes the private one.
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.shareInChannel,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const share = ShareValueSchema.safeParse(parseValue(action));
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

/** The export of the card clicked: its file goes in the card's thread, or privately for a private card. */
function exportJob(body: BlockAction, value: ListPageValue): Job {
  const isPrivate = body.container.is_ephemeral === true;
  const message = body.message;
  const card =
    message && Array.isArray(message.blocks)
      ? { text: typeof message.text === 'string' ? message.text : '', blocks: message.blocks as KnownBlock[] }
      : undefined;
  const threadTs = threadOf(message);
  return {
    kind: 'export',
    id: `export:${body.trigger_id}`,
    ...value,
    private: isPrivate,
    ...(card ? { card } : {}),
    context: { ...contextOf(body), ...(!isPrivate && threadTs ? { threadTs } : {}) },
  };
}

/** Export CSV on a list card: the worker reads every page (free reads only) and uploads one file. */
function registerExportAction(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.listExport,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ListPageValueSchema.safeParse(parseValue(action));
      if (!value.success) return outOfDate(respond);
      await deps.dispatch(exportJob(body, value.data));
    }),
  );
}
