// The conversation's timeline: messages with their threads, files and the app's unfurls.

import { revealAnswer } from './answer.js';
import { messageSurface, renderBlock, warningsBox } from './blocks.js';
import { $, el } from './dom.js';
import { messageActions } from './menus.js';
import { currentConversation, nameOf, view } from './state.js';
import { mrkdwn } from './text.js';

// ---------- messages ----------

function renderUnfurl(message, unfurl) {
  const surface = messageSurface(message, unfurl.url);
  let host = unfurl.url;
  try {
    host = new URL(unfurl.url).hostname;
  } catch {
    // shown as sent
  }
  return el('div', { class: 'unfurl', 'data-url': unfurl.url }, [
    el('div', { class: 'unfurl-source', text: host }),
    warningsBox(unfurl.warnings),
    ...(unfurl.blocks.length > 0
      ? unfurl.blocks.map((block, index) => renderBlock(surface, block, index))
      : [el('div', { class: 'message-text', html: mrkdwn(unfurl.text) })]),
  ]);
}

const fileSize = (bytes) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** A shared file as Slack shows it: its kind, title (opens it), name and size, and a download link. */
function renderFile(file) {
  const kind = (file.name.split('.').pop() ?? '').toUpperCase().slice(0, 4) || 'FILE';
  return el('div', { class: 'file', 'data-file-id': file.id }, [
    el('span', { class: 'file-kind', 'aria-hidden': 'true', text: kind }),
    el('div', { class: 'file-info' }, [
      el('a', { class: 'file-title', href: file.url, target: '_blank', rel: 'noreferrer', text: file.title }),
      el('div', { class: 'file-meta' }, [
        el('span', { class: 'file-name', text: file.name }),
        ' · ',
        el('span', { class: 'file-size', text: fileSize(file.size) }),
      ]),
    ]),
    el('a', {
      class: 'file-download',
      href: `${file.url}?download`,
      download: file.name,
      text: 'Download',
      'aria-label': `Download ${file.name}`,
    }),
  ]);
}

function renderMessage(message, replies = []) {
  const isBot = message.user === view.state.botUserId;
  const isSlackbot = message.user === 'USLACKBOT';
  const name = nameOf(message.user);
  const meta = el('div', { class: 'meta' }, [
    el('span', { class: 'name', text: name }),
    isBot ? el('span', { class: 'badge', text: 'APP' }) : null,
    message.edited ? el('span', { class: 'edited', text: '(edited)' }) : null,
    message.visibleTo ? el('span', { class: 'only-you', text: 'Only visible to you' }) : null,
  ]);
  const body = el('div', { class: 'body' }, [meta, warningsBox(message.warnings)]);
  if (Array.isArray(message.blocks) && message.blocks.length > 0) {
    const surface = messageSurface(message);
    message.blocks.forEach((block, index) => {
      body.append(renderBlock(surface, block, index));
    });
  } else {
    body.append(el('div', { class: 'message-text', html: mrkdwn(message.text) }));
  }
  for (const file of message.files ?? []) body.append(renderFile(file));
  for (const unfurl of view.state.unfurls.filter((u) => u.channel === message.channel && u.ts === message.ts))
    body.append(renderUnfurl(message, unfurl));
  if (replies.length > 0) {
    body.append(
      el('div', { class: 'thread' }, [
        el('div', {
          class: 'thread-count',
          text: `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
        }),
        ...replies.map((reply) => renderMessage(reply)),
      ]),
    );
  }
  const avatarClass = `avatar${isBot ? ' bot' : ''}${isSlackbot ? ' slackbot' : ''}`;
  return el(
    'div',
    {
      class: `message${message.visibleTo ? ' ephemeral' : ''}`,
      'data-ts': message.ts,
      'data-thread-ts': message.threadTs,
    },
    [el('div', { class: avatarClass, text: name.slice(0, 1).toUpperCase() }), body, messageActions(message)],
  );
}

export function renderTimeline() {
  const timeline = $('timeline');
  const nearBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 80;
  const conversation = currentConversation();
  const messages = view.state.messages.filter((m) => m.channel === conversation);
  const shown = new Set(messages.map((m) => m.ts));
  const replies = new Map();
  const top = [];
  for (const message of messages) {
    const parent = message.threadTs && message.threadTs !== message.ts ? message.threadTs : undefined;
    if (parent && shown.has(parent)) replies.set(parent, [...(replies.get(parent) ?? []), message]);
    else top.push(message);
  }
  timeline.replaceChildren(
    ...(top.length === 0
      ? [el('div', { class: 'empty', text: 'No messages yet. Try /events help or /events fit 26855.' })]
      : top.map((message) => renderMessage(message, replies.get(message.ts)))),
  );
  if (nearBottom) timeline.scrollTop = timeline.scrollHeight;
  revealAnswer();
}
