// Slack text as HTML: escaping, emoji, dates, mentions and links, mrkdwn, and text objects.

import { channelName, nameOf } from './state.js';

export const escapeHtml = (text) =>
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
  page_facing_up: '📄',
  double_vertical_bar: '⏸️',
  telephone_receiver: '📞',
  memo: '📝',
  bar_chart: '📊',
};
export const emojify = (html) => html.replace(/:([a-z0-9_+-]+):/g, (all, name) => EMOJI[name] ?? all);

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
export function mrkdwn(text) {
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
export const textHtml = (object) => {
  if (!object || typeof object.text !== 'string') return '';
  return object.type === 'mrkdwn' ? mrkdwn(object.text) : emojify(escapeHtml(object.text));
};
