import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import * as z from 'zod';
import { type Audience, mayUse, type Standing } from '../../domain/audience.ts';
import type { SpendPolicy } from '../../domain/approval.ts';
import { type ButtonAudience, BUTTON_AUDIENCES, RUNS } from '../views/action-ids.ts';
import { FORM_AUDIENCES } from '../views/form-ids.ts';
import { errorMessage } from '../views/messages.ts';
import { plainText, section } from '../views/blocks.ts';
import { escapeMrkdwn } from '../views/mrkdwn.ts';
import { openModal } from './interaction.ts';
import type { ListenerDeps } from './listener-deps.ts';
import { servedWorkspace } from './served-workspace.ts';
import { standingIn, type WorkspaceRoles } from './workspace-roles.ts';
import type { JobContext } from './jobs.ts';

/*
 * The one check of who may use what (src/domain/audience.ts decides; each command word, button and
 * form declares its audience). Two dispatchers run it before any handler: the worker's, for every
 * `/events` command and list page (typed, from a button, a form or a shared answer), and
 * `permissionsGate`, Bolt's first middleware after the workspace's, for every other button and form.
 */

/** Who a refusal names, by audience. */
const WHO: Record<Audience, string> = {
  anyone: 'anyone',
  guests: 'members and guests of this workspace',
  members: 'members of this workspace',
  askers: 'members of this workspace (the person who asked, or a spend approver)',
  authors: 'members of this workspace (the person who logged it, or a workspace admin)',
  approvers: 'spend approvers and workspace admins',
  admins: 'workspace admins and owners, and the app managers they name',
};

/** Why this user is not one of them, when their standing says more than "not one of them". */
const WHY: Partial<Record<Standing['kind'], string>> = {
  outsider: ' You are a guest from another organisation here.',
  guest: ' You are a guest of this workspace.',
};

/**
 * The refusal, in one sentence that says who may: `what` is the thing refused (`/events spend`,
 * "This button"). Slack not answering in time is said so, to try again.
 */
export function refusalText(audience: Audience, standing: Standing, what: string): string {
  if (standing.kind === 'unknown')
    return `Slack did not answer in time to say whether you may use ${what}. Please try again in a moment.`;
  return `Only ${WHO[audience]} may use ${what}.${WHY[standing.kind] ?? ''} Nothing was done.`;
}

/** What the worker's dispatcher needs to check a command or a list page. */
export interface WorkerGateDeps {
  workspaceRoles: Pick<WorkspaceRoles, 'standing'>;
  policyIn: (channelId: string | undefined) => Promise<Pick<SpendPolicy, 'approvers'>>;
}

/**
 * The refusal of something run for `context.userId`, or undefined when they may: `anyone` asks Slack
 * nothing, anything narrower one `users.info`.
 */
export async function refusalFor(
  deps: WorkerGateDeps,
  audience: Audience,
  context: Pick<JobContext, 'teamId' | 'channelId' | 'userId'>,
  what: string,
): Promise<string | undefined> {
  if (audience === 'anyone') return undefined;
  const policy = await deps.policyIn(context.channelId || undefined);
  const standing = await deps.workspaceRoles.standing(context.teamId, context.userId, policy);
  return mayUse(audience, standing) ? undefined : refusalText(audience, standing, what);
}

/** A button's declaration by its action id (a follow-up's carries a `.<n>` suffix). */
export function buttonAudienceOf(actionId: string): ButtonAudience | undefined {
  return BUTTON_AUDIENCES.find(({ actionId: id }) => actionId === id || actionId.startsWith(`${id}.`))?.audience;
}

/** A form's declaration by its callback id; a submission of any other is for nobody. */
export const formAudienceOf = (callbackId: string): ButtonAudience | undefined =>
  FORM_AUDIENCES.find(({ callbackId: id }) => id === callbackId)?.audience;

type Interaction = AnyMiddlewareArgs & AllMiddlewareArgs;
type Click = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type Submission = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const isClick = (args: Interaction): args is Click => 'action' in args && args.body.type === 'block_actions';
const isSubmission = (args: Interaction): args is Submission =>
  'view' in args && args.body.type === 'view_submission';

const OUT_OF_DATE = 'This form is out of date: nothing was done. Open it again.';

const refusalModal = (text: string) => ({
  type: 'modal' as const,
  title: plainText('Event Intelligence'),
  close: plainText('Close'),
  blocks: [section(escapeMrkdwn(text))],
});

/**
 * Checked here: what a button or form declares, other than `RUNS` (held where it runs, in the worker)
 * and `admins` (the settings, whose room tells an admin from an app manager and names the admins in
 * its refusal within Slack's 3 s, by the same rule: `settingsAccessOf`).
 */
const checkedHere = (audience: ButtonAudience | undefined): audience is Audience =>
  audience !== undefined && audience !== RUNS && audience !== 'anyone' && audience !== 'admins';

/**
 * Bolt middleware: a click or a submission is held to its button's or form's declared audience before
 * any listener runs; a refusal is acked and told to the user (ephemeral on a message, a small modal on
 * the Home or over a form). A form that declares nothing is refused.
 */
export function permissionsGate(deps: Pick<ListenerDeps, 'policyFor' | 'workspaceAdmin' | 'logger'>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const interaction: Interaction = args;
    const click = isClick(interaction) ? interaction : undefined;
    const submission = isSubmission(interaction) ? interaction : undefined;
    if (!click && !submission) return args.next();
    const declared = click
      ? buttonAudienceOf('action_id' in click.action ? click.action.action_id : '')
      : formAudienceOf(submission?.view.callback_id ?? '');
    if (submission && declared === undefined) {
      deps.logger.warn('refused a form that declares no audience', { form: submission.view.callback_id });
      return submission.ack({ response_action: 'update', view: refusalModal(OUT_OF_DATE) });
    }
    if (!checkedHere(declared)) return args.next();
    const standing = await standingOf(click ?? (submission as Submission), deps);
    if (mayUse(declared, standing)) return args.next();
    const text = refusalText(declared, standing, click ? 'this button' : 'this form');
    deps.logger.info('refused a button or form to a user it is not for', { audience: declared, standing: standing.kind });
    if (submission) return submission.ack({ response_action: 'update', view: refusalModal(text) });
    if (!click) return;
    await click.ack();
    if (click.body.container.type === 'view') {
      await openModal(click.client, click.body.trigger_id, refusalModal(text), deps.logger);
      return;
    }
    await click.respond({ response_type: 'ephemeral', replace_original: false, ...errorMessage(text) });
  };
}

const ViewChannelSchema = z.object({ channelId: z.string().min(1) });

/** The channel a click is in, or a form was opened from (its metadata's `channelId`); none on the Home. */
function channelOf(args: Click | Submission): string | undefined {
  if ('action' in args) return args.body.channel?.id;
  try {
    return ViewChannelSchema.safeParse(JSON.parse(args.view.private_metadata || '{}')).data?.channelId;
  } catch {
    return undefined;
  }
}

/** Who clicked or submitted, in the workspace the request comes from. */
async function standingOf(
  args: Click | Submission,
  deps: Pick<ListenerDeps, 'policyFor' | 'workspaceAdmin' | 'logger'>,
): Promise<Standing> {
  const { body, client, context } = args;
  const teamId = context.teamId;
  if (!teamId || !deps.workspaceAdmin) return { kind: 'unknown' };
  const payloadTeamId = body.user.team_id;
  return standingIn(
    deps.workspaceAdmin,
    client,
    {
      workspace: servedWorkspace(teamId, context),
      user: { userId: body.user.id, ...(payloadTeamId ? { payloadTeamId } : {}) },
      policy: await deps.policyFor(teamId, channelOf(args), context.botToken),
    },
    deps.logger,
  );
}
