import type { AllMiddlewareArgs, App, BlockAction, ButtonAction } from '@slack/bolt';
import * as z from 'zod';
import { isApprover } from '../../../domain/approval.ts';
import { CHANNEL_ID, metadataOf } from '../../kit/modal-forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { openModal } from '../../kit/interaction.ts';
import { type ModalReader, registerModalSubmission } from '../../kit/modals.ts';
import { memberChannelsOf } from '../../kit/digest-access.ts';
import { readDigestForm } from './forms.ts';
import { DIGEST_MODAL, digestModal } from './settings-views.ts';

/**
 * Fills an open digest modal with the channel's digest as it stands or, for a new one, the
 * workspace's default time (distributed apps); left as opened when there is neither.
 */
export async function fillDigestModal(
  client: AllMiddlewareArgs['client'],
  viewId: string,
  channel: string,
  teamId: string | undefined,
  deps: Pick<ListenerDeps, 'digestSubscriptions' | 'digestDefaultsFor' | 'logger'>,
): Promise<void> {
  if (!teamId) return;
  try {
    const [current, defaults] = await Promise.all([
      deps.digestSubscriptions?.get(teamId, channel),
      deps.digestDefaultsFor?.(teamId),
    ]);
    if (current || defaults?.time || defaults?.timeZone)
      await client.views.update({
        view_id: viewId,
        view: digestModal(channel, current ?? undefined, defaults),
      });
  } catch (error) {
    deps.logger.warn('could not show the digest settings as they stand', { error });
  }
}

/** A spend approver, or a member of the channel (one `users.conversations` call); nobody when Slack cannot say. */
async function mayEditDigest(
  client: AllMiddlewareArgs['client'],
  deps: Pick<ListenerDeps, 'policyFor' | 'logger'>,
  who: { teamId: string | undefined; channel: string; userId: string; botToken: string | undefined },
): Promise<boolean> {
  try {
    if (who.teamId && isApprover(await deps.policyFor(who.teamId, who.channel, who.botToken), who.userId)) return true;
    return (await memberChannelsOf(client)(who.userId)).has(who.channel);
  } catch (error) {
    deps.logger.warn('could not tell whether a user may see a digest', { error });
    return false;
  }
}

/** A button value naming a channel: the id itself, or JSON `"C123"` / `{ "channelId": "C123" }`. */
function channelValue(value: string | undefined): string | undefined {
  const raw = (value ?? '').trim();
  if (CHANNEL_ID.test(raw)) return raw;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = z.union([z.string(), z.object({ channelId: z.string() })]).safeParse(json);
  if (!parsed.success) return undefined;
  const channel = typeof parsed.data === 'string' ? parsed.data : parsed.data.channelId;
  return CHANNEL_ID.test(channel) ? channel : undefined;
}

const readDigest: ModalReader = (values, view, who) => {
  const channelId = metadataOf(view, z.object({ channelId: z.string().min(1) }))?.channelId;
  if (!channelId) return { ok: false, errors: { time: 'This form is out of date; open it again.' } };
  const form = readDigestForm(values);
  if (!form.ok) return form;
  return { ok: true, value: { kind: 'command', text: form.value, context: { ...who, channelId } } };
};

/** The digest's settings modal (App Home's Edit digest); its rows' buttons are `DIGEST_BUTTONS`. */
export function registerDigests(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.openDigestSettings,
    async ({ ack, body, client, context }) => {
      const channel = channelValue(body.actions[0]?.value);
      const opened = channel && (await openModal(client, body.trigger_id, digestModal(channel), deps.logger));
      await ack();
      if (!channel || !opened) return;
      const teamId = body.team?.id ?? body.user.team_id;
      // A forged or stale button may name any channel: its filters are shown only to who may change them.
      if (
        !(await mayEditDigest(client, deps, {
          teamId,
          channel,
          userId: body.user.id,
          botToken: context.botToken,
        }))
      )
        return;
      // Opened first (the trigger id lasts 3 s), then filled in.
      await fillDigestModal(client, opened, channel, teamId, deps);
    },
  );
  registerModalSubmission(app, deps, DIGEST_MODAL, readDigest);
}
