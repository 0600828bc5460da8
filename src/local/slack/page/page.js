// The local Slack page: a view of the fake Slack's state (GET /local/state, live over
// /local/events), a composer that sends signed slash commands, and buttons that send signed
// block_actions. Plain DOM, no build step.

const $ = (id) => document.getElementById(id);

const view = {
  user: localStorage.getItem('localSlack.user'),
  channel: localStorage.getItem('localSlack.channel'),
  /** The last GET /local/state answer. */
  state: undefined,
  helpItems: [],
  helpActive: 0,
};

// ---------- text ----------

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const decodeEntities = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const EMOJI = {
  credit_card: '💳',
  email: '📧',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  red_circle: '🔴',
  lock: '🔒',
  unlock: '🔓',
  newspaper: '📰',
  no_entry_sign: '🚫',
  star: '⭐',
  warning: '⚠️',
  wave: '👋',
  white_check_mark: '✅',
  x: '❌',
  calendar: '📅',
  phone: '📞',
  mag: '🔍',
  tada: '🎉',
};
const emojify = (html) => html.replace(/:([a-z0-9_+-]+):/g, (all, name) => EMOJI[name] ?? all);

const nameOf = (userId) => {
  const state = view.state;
  if (!state) return userId;
  if (userId === state.botUserId) return 'eventbot';
  if (userId === 'USLACKBOT') return 'Slackbot';
  return state.users.find((u) => u.id === userId)?.name ?? userId;
};

const pad = (n) => String(n).padStart(2, '0');
/** `<!date^epoch^format|fallback>` as Slack renders it, in the browser's time zone. */
function slackDate(epoch, format) {
  const date = new Date(Number(epoch) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  const long = { year: 'numeric', month: 'long', day: 'numeric' };
  const tokens = {
    date_num: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    date: date.toLocaleDateString('en-US', long),
    date_pretty: date.toLocaleDateString('en-US', long),
    date_short: date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    date_short_pretty: date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    date_long: date.toLocaleDateString('en-US', { weekday: 'long', ...long }),
    date_long_pretty: date.toLocaleDateString('en-US', { weekday: 'long', ...long }),
    time: date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
    time_secs: date.toLocaleTimeString('en-US'),
  };
  return format.replace(/\{(\w+)\}/g, (all, token) => tokens[token] ?? all);
}

/** One `<…>` token: a mention, a channel, a date, a special mention, or a link. */
function renderToken(inner) {
  const [target, label] = splitOnce(inner, '|');
  if (target.startsWith('@')) return `<span class="mention">@${escapeHtml(nameOf(target.slice(1)))}</span>`;
  if (target.startsWith('#'))
    return `<span class="mention">#${escapeHtml(label ?? channelName(target.slice(1)))}</span>`;
  if (target.startsWith('!date^')) {
    const [, epoch, format] = target.split('^');
    return escapeHtml(slackDate(epoch, format ?? '{date}') ?? decodeEntities(label ?? ''));
  }
  if (target.startsWith('!'))
    return `<span class="mention">@${escapeHtml(target.slice(1).split('^')[0])}</span>`;
  const href = decodeEntities(target);
  if (!/^(https?:|mailto:)/.test(href)) return escapeHtml(decodeEntities(label ?? target));
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noreferrer">${escapeHtml(decodeEntities(label ?? href.replace(/^mailto:/, '')))}</a>`;
}

function splitOnce(text, separator) {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Slack mrkdwn to HTML: code, tokens, bold, italic, strike, quotes, emoji, line breaks. */
function mrkdwn(text) {
  const held = [];
  const hold = (html) => `\uE000${held.push(html) - 1}\uE001`;
  let out = String(text ?? '');
  out = out.replace(/```([\s\S]*?)```/g, (_, code) =>
    hold(`<pre class="code">${escapeHtml(decodeEntities(code))}</pre>`),
  );
  out = out.replace(/`([^`\n]+)`/g, (_, code) => hold(`<code>${escapeHtml(decodeEntities(code))}</code>`));
  out = out.replace(/<([^<>\n]+)>/g, (_, inner) => hold(renderToken(inner)));
  out = escapeHtml(decodeEntities(out));
  out = out.replace(/(^|[^\w*])\*([^*\n]+)\*(?![\w*])/g, '$1<b>$2</b>');
  out = out.replace(/(^|[^\w])_([^_\n]+)_(?!\w)/g, '$1<i>$2</i>');
  out = out.replace(/(^|[^\w])~([^~\n]+)~(?!\w)/g, '$1<s>$2</s>');
  out = out.replace(/^&gt; ?(.*)$/gm, '<blockquote>$1</blockquote>');
  out = emojify(out).replace(/\n/g, '<br>');
  return out.replace(/\uE000(\d+)\uE001/g, (_, index) => held[Number(index)]);
}

/** A text object: `plain_text` is shown as is (with emoji), `mrkdwn` is formatted. */
const textHtml = (object) => {
  if (!object || typeof object.text !== 'string') return '';
  return object.type === 'mrkdwn' ? mrkdwn(object.text) : emojify(escapeHtml(object.text));
};

// ---------- DOM helpers ----------

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'html') node.innerHTML = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of [children].flat()) if (child) node.append(child);
  return node;
}

const channelName = (id) => view.state?.channels.find((c) => c.id === id)?.name ?? id;

// ---------- blocks ----------

function renderBlock(message, block, index) {
  const blockId = block.block_id ?? `block-${index}`;
  switch (block.type) {
    case 'header':
      return el('div', { class: 'block block-header', html: textHtml(block.text) });
    case 'section': {
      const main = el('div', { class: 'section-main' }, [
        block.text ? el('div', { class: 'section-text', html: textHtml(block.text) }) : null,
        Array.isArray(block.fields)
          ? el(
              'div',
              { class: 'fields' },
              block.fields.map((field) => el('div', { class: 'field', html: textHtml(field) })),
            )
          : null,
      ]);
      return el('div', { class: 'block block-section' }, [main, renderAccessory(message, block, blockId)]);
    }
    case 'context':
      return el(
        'div',
        { class: 'block block-context' },
        (block.elements ?? []).map((element) =>
          element.type === 'image'
            ? el('img', { src: element.image_url, alt: element.alt_text ?? '' })
            : el('span', { html: textHtml(element) }),
        ),
      );
    case 'divider':
      return el('hr', { class: 'block block-divider' });
    case 'image':
      return el('figure', { class: 'block block-image' }, [
        block.title ? el('figcaption', { html: textHtml(block.title) }) : null,
        el('img', { src: block.image_url, alt: block.alt_text ?? '' }),
      ]);
    case 'actions':
      return el(
        'div',
        { class: 'block block-actions' },
        (block.elements ?? []).map((element) =>
          element.type === 'button'
            ? renderButton(message, element, blockId)
            : el('span', { class: 'unknown-block', text: `[${element.type}]` }),
        ),
      );
    default:
      return el('div', { class: 'block unknown-block', text: `[unsupported block: ${block.type}]` });
  }
}

function renderAccessory(message, block, blockId) {
  const accessory = block.accessory;
  if (!accessory) return null;
  if (accessory.type === 'button') return renderButton(message, accessory, blockId);
  if (accessory.type === 'image')
    return el('img', { class: 'accessory-image', src: accessory.image_url, alt: accessory.alt_text ?? '' });
  return el('span', { class: 'unknown-block', text: `[${accessory.type}]` });
}

function renderButton(message, element, blockId) {
  const button = el('button', {
    type: 'button',
    class: `slack-button ${element.style ?? ''}`.trim(),
    'data-action-id': element.action_id,
    html: textHtml(element.text),
  });
  button.addEventListener('click', async () => {
    if (element.confirm && !(await confirmDialog(element.confirm))) return;
    button.disabled = true;
    try {
      await postJson('/local/click', {
        user: view.user,
        channel: message.channel,
        ts: message.ts,
        actionId: element.action_id,
        blockId,
      });
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** Slack's confirmation dialog: resolves true only when the user presses its confirm button. */
function confirmDialog(confirm) {
  const dialog = $('confirm-dialog');
  $('confirm-title').innerHTML = textHtml(confirm.title) || 'Are you sure?';
  $('confirm-text').innerHTML = textHtml(confirm.text);
  $('confirm-accept').innerHTML = textHtml(confirm.confirm) || 'Yes';
  $('confirm-deny').innerHTML = textHtml(confirm.deny) || 'Cancel';
  $('confirm-accept').className = confirm.style === 'danger' ? 'danger' : 'primary';
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'accept'), { once: true });
  });
}

// ---------- messages ----------

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
  const body = el('div', { class: 'body' }, [meta]);
  if (message.warnings?.length) {
    body.append(
      el('div', { class: 'warnings', role: 'alert' }, [
        el('b', { text: '⚠ Block Kit: ' }),
        el('span', { text: message.warnings.join('; ') }),
      ]),
    );
  }
  if (Array.isArray(message.blocks) && message.blocks.length > 0) {
    message.blocks.forEach((block, index) => {
      body.append(renderBlock(message, block, index));
    });
  } else {
    body.append(el('div', { class: 'message-text', html: mrkdwn(message.text) }));
  }
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
    [el('div', { class: avatarClass, text: name.slice(0, 1).toUpperCase() }), body],
  );
}

function renderTimeline() {
  const timeline = $('timeline');
  const nearBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 80;
  const messages = view.state.messages.filter((m) => m.channel === view.channel);
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
}

function renderSidebar() {
  const { channels, users } = view.state;
  $('channels').replaceChildren(
    ...channels.map((channel) =>
      el('li', {}, [
        el('button', {
          type: 'button',
          'aria-current': channel.id === view.channel ? 'true' : 'false',
          text: `# ${channel.name}`,
          onclick: () => {
            view.channel = channel.id;
            localStorage.setItem('localSlack.channel', channel.id);
            render();
          },
        }),
      ]),
    ),
  );
  $('users').replaceChildren(
    ...users.map((user) =>
      el('button', {
        type: 'button',
        role: 'radio',
        'aria-checked': user.id === view.user ? 'true' : 'false',
        text: user.name,
        onclick: () => {
          view.user = user.id;
          localStorage.setItem('localSlack.user', user.id);
          refresh();
        },
      }),
    ),
  );
  $('user-note').textContent = users.find((u) => u.id === view.user)?.title ?? '';
  $('channel-name').textContent = `# ${channelName(view.channel)}`;
}

function renderJobs() {
  $('jobs').replaceChildren(
    ...view.state.jobs.map((job) =>
      el('button', {
        type: 'button',
        'data-job': job,
        text: `Run now: ${job}`,
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          const target = event.currentTarget;
          try {
            const answer = await postJson(`/local/jobs/${job}`, {});
            showJobResult(job, answer.ok ? answer.result : answer.error);
          } finally {
            target.disabled = false;
          }
          refreshAccount();
        },
      }),
    ),
  );
}

function showJobResult(job, result) {
  const box = $('job-result');
  box.hidden = false;
  box.textContent = `${job}: ${JSON.stringify(result, null, 1)}`;
}

function render() {
  if (!view.state) return;
  renderSidebar();
  renderTimeline();
  renderJobs();
}

// ---------- side panel: credits ----------

const credits = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

async function refreshAccount() {
  if (!view.state?.hasAccount) {
    $('balance').textContent = 'not available';
    return;
  }
  const response = await fetch('/local/account');
  const account = await response.json();
  if (!account.ok) {
    $('balance').textContent = 'unavailable';
    return;
  }
  $('balance').textContent = credits(account.balance);
  if (account.ledger.length === 0) {
    $('ledger').replaceChildren(el('li', { class: 'ledger-empty', text: 'No charges yet' }));
    return;
  }
  $('ledger').replaceChildren(
    ...[...account.ledger].reverse().map((entry) =>
      el('li', {}, [
        el('span', { class: 'credits', text: `−${credits(entry.credits)} ` }),
        el('span', {
          text: [entry.action, entry.eventId, entry.personnelIds?.join(' ')].filter(Boolean).join(' · '),
        }),
        entry.at ? el('div', { class: 'help-summary', text: new Date(entry.at).toLocaleTimeString() }) : null,
      ]),
    ),
  );
}

// ---------- composer and help ----------

function commandName() {
  return view.state?.command?.name ?? '/events';
}

function updateHelp() {
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

async function submitComposer(event) {
  event.preventDefault();
  const input = $('composer-input');
  const value = input.value.trim();
  if (!value) return;
  const command = commandName();
  if (!(value === command || value.startsWith(`${command} `))) {
    updateHelp();
    $('help').hidden = false;
    if (!value.startsWith('/')) {
      $('help').replaceChildren(
        el('div', { class: 'help-problem', text: `This local Slack sends ${command} commands only.` }),
      );
    }
    return;
  }
  input.value = '';
  updateHelp();
  const answer = await postJson('/local/command', {
    user: view.user,
    channel: view.channel,
    text: value.slice(command.length).trim(),
  });
  if (!answer.ok) showJobResult('command', answer.error);
}

function onComposerKey(event) {
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

// ---------- data ----------

async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

let refreshing = false;
let again = false;
async function refresh() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  try {
    do {
      again = false;
      const response = await fetch(`/local/state?user=${encodeURIComponent(view.user ?? '')}`);
      view.state = await response.json();
      const { users, channels } = view.state;
      if (!users.some((u) => u.id === view.user) && users[0]) {
        view.user = users[0].id;
        again = true;
      }
      if (!channels.some((c) => c.id === view.channel)) view.channel = channels[0]?.id;
      render();
    } while (again);
  } finally {
    refreshing = false;
  }
  await refreshAccount();
}

function connect() {
  const events = new EventSource('/local/events');
  events.addEventListener('open', () => {
    $('connection').classList.add('live');
    refresh();
  });
  events.addEventListener('error', () => $('connection').classList.remove('live'));
  events.addEventListener('change', () => refresh());
}

$('composer').addEventListener('submit', submitComposer);
$('composer-input').addEventListener('input', () => {
  view.helpActive = 0;
  updateHelp();
});
$('composer-input').addEventListener('keydown', onComposerKey);
$('composer-input').addEventListener('blur', () => {
  $('help').hidden = true;
});
$('composer-input').addEventListener('focus', updateHelp);
setInterval(refreshAccount, 5000);
await refresh();
connect();
document.body.dataset.ready = 'true';
