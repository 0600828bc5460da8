// The answer to what the user just did, brought into view as it arrives.

import { openCanvas } from './canvas-tabs.js';
import { $ } from './dom.js';
import { currentConversation, page, view } from './state.js';

const ANSWER_WAIT_MS = 15_000;
const signature = (m) => JSON.stringify([m.text, m.blocks, m.files?.length ?? 0]);
const signatures = () =>
  new Map((view.state?.messages ?? []).map((m) => [`${m.channel}/${m.ts}`, signature(m)]));

/**
 * The user sent a command or clicked: what the app answers in this conversation (a new message, a
 * reply in a thread, a message updated in place) is scrolled into view as it arrives, however long the
 * list above it. On a canvas tab, the Messages tab opens to show it.
 */
export function awaitAnswer() {
  view.awaiting = { until: Date.now() + ANSWER_WAIT_MS, seen: signatures() };
  if (openCanvas()) {
    view.channelTabs[view.channel] = undefined;
    page.render();
  }
}

export function revealAnswer() {
  const awaiting = view.awaiting;
  if (awaiting && Date.now() > awaiting.until) view.awaiting = undefined;
  if (!view.awaiting) return;
  const conversation = currentConversation();
  const fresh = view.state.messages.filter(
    (m) => m.channel === conversation && awaiting.seen.get(`${m.channel}/${m.ts}`) !== signature(m),
  );
  awaiting.seen = signatures();
  const newest = fresh.at(-1);
  if (newest) view.answerTs = newest.ts;
  const shown =
    view.answerTs && $('timeline').querySelector(`.message[data-ts="${CSS.escape(view.answerTs)}"]`);
  if (!shown) return;
  shown.classList.add('answer');
  if (newest) shown.scrollIntoView({ block: 'nearest' });
}
