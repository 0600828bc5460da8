// The composer: slash commands and messages sent, and the command help shown while typing.

import { awaitAnswer } from './answer.js';
import { $, el } from './dom.js';
import { showJobResult } from './side-panel.js';
import { currentConversation, postJson, view } from './state.js';

function commandName() {
  return view.state?.command?.name ?? '/events';
}

export function updateHelp() {
  const input = $('composer-input');
  const help = $('help');
  const value = input.value;
  const command = commandName();
  const specs = view.state?.command?.help ?? [];
  view.helpItems = [];
  const rows = [];
  if (value.startsWith('/') && !value.includes(' ') && command.startsWith(value)) {
    view.helpItems = [{ complete: `${command} `, usage: command, summary: 'Event Intelligence commands' }];
  } else if (value.startsWith(`${command} `)) {
    const rest = value.slice(command.length + 1).replace(/^\s+/, '');
    const word = rest.split(/\s/)[0];
    const typingWord = !/\s/.test(rest);
    const exact = specs.find((spec) => spec.word === word);
    if (typingWord) {
      view.helpItems = specs
        .filter((spec) => spec.word.startsWith(word))
        .map((spec) => ({ ...spec, complete: `${command} ${spec.word} ` }));
    } else if (exact) {
      view.helpItems = [{ ...exact, complete: undefined }];
    } else {
      rows.push(el('div', { class: 'help-problem', text: `Unknown word "${word}". The commands are:` }));
      view.helpItems = specs.map((spec) => ({ ...spec, complete: `${command} ${spec.word} ` }));
    }
  } else if (value.startsWith('/')) {
    rows.push(el('div', { class: 'help-problem', text: `Only ${command} is installed in this workspace.` }));
  }
  view.helpActive = Math.min(view.helpActive, Math.max(0, view.helpItems.length - 1));
  view.helpItems.forEach((item, index) => {
    rows.push(
      el(
        'div',
        {
          class: `help-item${index === view.helpActive && item.complete ? ' active' : ''}`,
          onmousedown: (event) => {
            event.preventDefault();
            if (item.complete) completeTo(item.complete);
          },
        },
        [
          el('div', { class: 'help-usage', text: item.word ? `${command} ${item.usage}` : item.usage }),
          el('div', {
            class: 'help-summary',
            text: `${item.summary}${item.example ? ` · e.g. ${command} ${item.example}` : ''}`,
          }),
          item.credits ? el('div', { class: 'help-credits', text: `Spends credits: ${item.credits}` }) : null,
        ],
      ),
    );
  });
  help.replaceChildren(...rows);
  help.hidden = rows.length === 0;
}

function completeTo(text) {
  const input = $('composer-input');
  input.value = text;
  input.focus();
  view.helpActive = 0;
  updateHelp();
}

export async function submitComposer(event) {
  event.preventDefault();
  const input = $('composer-input');
  const value = input.value.trim();
  if (!value) return;
  const command = commandName();
  const channel = currentConversation();
  if (!value.startsWith('/')) {
    // A plain message: posted as the user; Slack sends the app link_shared for its links.
    input.value = '';
    updateHelp();
    awaitAnswer();
    const answer = await postJson('/local/message', { user: view.user, channel, text: value });
    if (!answer.ok) showJobResult('message', answer.error);
    return;
  }
  if (!(value === command || value.startsWith(`${command} `))) {
    updateHelp();
    $('help').hidden = false;
    return;
  }
  input.value = '';
  updateHelp();
  awaitAnswer();
  const answer = await postJson('/local/command', {
    user: view.user,
    channel,
    text: value.slice(command.length).trim(),
  });
  if (!answer.ok) showJobResult('command', answer.error);
}

export function onComposerKey(event) {
  const completable = view.helpItems.filter((item) => item.complete);
  if (event.key === 'Escape') $('help').hidden = true;
  if (completable.length === 0) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    view.helpActive = (view.helpActive + step + view.helpItems.length) % view.helpItems.length;
    updateHelp();
  } else if (event.key === 'Tab') {
    event.preventDefault();
    const item = view.helpItems[view.helpActive];
    if (item?.complete) completeTo(item.complete);
  }
}
