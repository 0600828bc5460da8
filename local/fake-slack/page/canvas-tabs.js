// A channel's canvases as tabs beside its Messages, and the open one drawn as a document.

import { canvasDocument } from './canvas.js';
import { $, el } from './dom.js';
import { currentConversation, onApp, page, view } from './state.js';

/** The current channel's canvases (the app keeps the channel's plan in one), each a tab beside Messages. */
const canvasesHere = () => {
  const conversation = currentConversation();
  return (view.state.canvases ?? []).filter((c) => c.channel === conversation);
};

/** The open canvas of the current channel, when a canvas tab is chosen and the canvas still exists. */
export const openCanvas = () => {
  if (onApp()) return undefined;
  const chosen = view.channelTabs[view.channel];
  return canvasesHere().find((canvas) => canvas.id === chosen);
};

export function renderChannelTabs() {
  const canvases = onApp() ? [] : canvasesHere();
  const open = openCanvas();
  const tab = (label, id, selected) =>
    el('button', {
      type: 'button',
      role: 'tab',
      'data-tab': id ? 'canvas' : 'messages',
      'data-canvas-id': id,
      'aria-selected': String(selected),
      text: label,
      onclick: () => {
        view.channelTabs[view.channel] = id;
        page.render();
      },
    });
  $('channel-tabs').hidden = canvases.length === 0;
  $('channel-tabs').replaceChildren(
    tab('Messages', undefined, !open),
    ...canvases.map((canvas) => tab(`📄 ${canvas.title}`, canvas.id, canvas.id === open?.id)),
  );
}

/** The open canvas drawn as a document (redrawn only when it changed, so a reader's scroll stays). */
export function renderCanvas(canvas) {
  const key = JSON.stringify([canvas.id, canvas.title, canvas.markdown]);
  if ($('canvas').dataset.key === key) return;
  $('canvas').dataset.key = key;
  $('canvas').replaceChildren(
    el('article', { class: 'canvas-doc', 'data-canvas-id': canvas.id }, [
      el('h1', { class: 'canvas-title', text: canvas.title }),
      ...canvasDocument(canvas.markdown),
    ]),
  );
}
