import { appFailure, deliver, newResponseUrl } from './commands-and-clicks.ts';
import { buttonsOf } from './payloads.ts';
import {
  type Args,
  type SlackState,
  actorOf,
  appDmOf,
  changed,
  findMessage,
  slackbotNote,
} from './slack-state.ts';
import {
  applySubmissionAnswer,
  closeTopModal,
  globalShortcutBody,
  messageShortcutBody,
  topModal,
  viewActionBody,
  viewClosedBody,
  viewSubmissionBody,
} from './surfaces.ts';
import {
  type FormInputs,
  missingRequired,
  responseUrlFields,
  stateValues,
  withInitialValues,
} from './view-state.ts';

/** Shortcuts a user picks, and what they do in a modal: submit it, close it, click in it. */

/** A click on the button `actionId` in the view `viewId` (their top modal by default), or `action` as is. */
export interface ViewClickInput {
  user: string;
  actionId: string;
  viewId?: string;
  blockId?: string;
  action?: Args;
  values?: Args;
  /** What the page's form holds (instead of `values`), shaped into `view.state.values`. */
  inputs?: FormInputs;
}

export function globalShortcut(
  state: SlackState,
  { user, callbackId }: { user: string; callbackId: string },
) {
  return deliver(state, globalShortcutBody(actorOf(state, user, ''), callbackId));
}

export function messageShortcut(
  state: SlackState,
  { user, channel, ts, callbackId }: { user: string; channel: string; ts: string; callbackId: string },
) {
  const message = findMessage(state, channel, ts);
  if (!message) throw new Error(`no message ${ts} in ${channel}`);
  const url = newResponseUrl(state, channel, user);
  return deliver(state, messageShortcutBody(actorOf(state, user, channel), message, callbackId, url));
}

export async function submitView(state: SlackState, { user, values }: { user: string; values: Args }) {
  const view = topModal(state.surfaces, user);
  if (!view) throw new Error(`${user} has no modal open`);
  delete view.errors;
  // Conversation pickers with `response_url_enabled` get a response_url for the chosen conversation.
  const responseUrls = responseUrlFields(view.view, values).map((field) => ({
    block_id: field.blockId,
    action_id: field.actionId,
    channel_id: field.channelId,
    response_url: newResponseUrl(state, field.channelId, user),
  }));
  const body = viewSubmissionBody(actorOf(state, user, ''), view, values, responseUrls);
  const answer = await deliver(state, body);
  if (answer.status === 200) applySubmissionAnswer(state.surfaces, view, answer.body);
  else
    slackbotNote(
      state,
      appDmOf(user),
      user,
      `The app did not answer the form (${appFailure(state, answer)})`,
    );
  changed(state);
  return answer;
}

export async function submitForm(state: SlackState, { user, inputs }: { user: string; inputs: FormInputs }) {
  const view = topModal(state.surfaces, user);
  if (!view) throw new Error(`${user} has no modal open`);
  const values = stateValues(view.view, withInitialValues(view.view, inputs));
  const missing = missingRequired(view.view, values);
  if (Object.keys(missing).length > 0) {
    view.errors = missing;
    changed(state);
    return undefined;
  }
  return submitView(state, { user, values });
}

export async function closeView(state: SlackState, { user }: { user: string }) {
  const view = closeTopModal(state.surfaces, user);
  changed(state);
  if (!view || view.view.notify_on_close !== true) return undefined;
  return deliver(state, viewClosedBody(actorOf(state, user, ''), view, false));
}

export function clickInView(state: SlackState, input: ViewClickInput) {
  const view = input.viewId ? state.surfaces.views.get(input.viewId) : topModal(state.surfaces, input.user);
  if (!view) throw new Error(`no view to click in for ${input.user}`);
  const clicked = buttonsOf({ blocks: Array.isArray(view.view.blocks) ? view.view.blocks : [] }).find(
    (c) =>
      c.button.action_id === input.actionId && (input.blockId === undefined || c.blockId === input.blockId),
  );
  const action = input.action ?? (clicked ? { ...clicked.button, block_id: clicked.blockId } : undefined);
  if (!action) throw new Error(`no button ${input.actionId} in view ${view.id}`);
  const values = input.inputs ? stateValues(view.view, input.inputs) : input.values;
  return deliver(state, viewActionBody(actorOf(state, input.user, ''), view, action, values));
}
