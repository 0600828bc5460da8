// A canvas's markdown drawn as Slack draws the document: headings, bulleted, numbered and checked
// lists (nested by indent), tables, quotes, rules, code blocks, and bold, italic, strike, code and
// links inside a line. Built as DOM nodes with text content only, so nothing in the markdown becomes
// markup it did not ask for.

const node = (tag, children = [], attributes = {}) => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
};

/** Inline markdown: `\` escapes, `code`, **bold**, *italic* / _italic_, ~~strike~~, [text](http…). */
const INLINE =
  /\\([\\`*_~#<>|[\]()!-])|`([^`]+)`|\*\*(.+?)\*\*|~~(.+?)~~|\*([^*\s][^*]*?)\*|(?<![\w\\])_([^_\s][^_]*?)_(?!\w)|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

function inline(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const [, escaped, code, bold, strike, italic, underscored, label, href] = match;
    if (escaped !== undefined) out.push(escaped);
    else if (code !== undefined) out.push(node('code', [code]));
    else if (bold !== undefined) out.push(node('strong', inline(bold)));
    else if (strike !== undefined) out.push(node('s', inline(strike)));
    else if (italic !== undefined || underscored !== undefined)
      out.push(node('em', inline(italic ?? underscored)));
    else out.push(node('a', inline(label), { href, target: '_blank', rel: 'noreferrer' }));
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?(.*)$/;
/** A table row's cells; `\|` stays in its cell. */
const cells = (line) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
const isTableSeparator = (line) => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);

/** A run of list lines as nested lists: a deeper indent nests under the item before it. */
function list(lines) {
  const fragment = document.createDocumentFragment();
  /** The lists open at this line, outermost first. */
  const open = [];
  for (const line of lines) {
    const [, indent, marker, check, text] = line.match(LIST_ITEM);
    const depth = indent.replace(/\t/g, '  ').length;
    const ordered = /\d/.test(marker);
    while (open.length > 0 && open.at(-1).depth > depth) open.pop();
    if (open.at(-1)?.depth === depth && open.at(-1).ordered !== ordered) open.pop();
    const outer = open.at(-1);
    if (!outer || outer.depth < depth) {
      const element = node(ordered ? 'ol' : 'ul');
      (outer?.element.lastElementChild ?? fragment).append(element);
      open.push({ depth, ordered, element });
    }
    const item = node('li', check ? [checkbox(check), ...inline(text)] : inline(text));
    if (check) item.className = 'canvas-check';
    open.at(-1).element.append(item);
  }
  return fragment;
}

function checkbox(check) {
  const box = node('input', [], { type: 'checkbox', disabled: '' });
  box.checked = /x/i.test(check);
  return box;
}

function table(lines) {
  const [head, , ...rows] = lines;
  return node('table', [
    node('thead', [
      node(
        'tr',
        cells(head).map((cell) => node('th', inline(cell))),
      ),
    ]),
    node(
      'tbody',
      rows.map((row) =>
        node(
          'tr',
          cells(row).map((cell) => node('td', inline(cell))),
        ),
      ),
    ),
  ]);
}

/** The document's blocks, from its lines. */
export function canvasDocument(markdown) {
  const lines = String(markdown ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const blocks = [];
  let paragraph = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push(node('p', inline(paragraph.join(' '))));
    paragraph = [];
  };
  for (let at = 0; at < lines.length;) {
    const line = lines[at];
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    const taken = (test) => {
      const run = [];
      while (at < lines.length && test(lines[at])) run.push(lines[at++]);
      return run;
    };
    if (!line.trim()) {
      endParagraph();
      at++;
    } else if (heading) {
      endParagraph();
      blocks.push(node(`h${Math.min(heading[1].length, 3)}`, inline(heading[2])));
      at++;
    } else if (/^\s*```/.test(line)) {
      endParagraph();
      at++;
      const code = taken((next) => !/^\s*```/.test(next));
      at++;
      blocks.push(node('pre', [node('code', [code.join('\n')])]));
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endParagraph();
      blocks.push(node('hr'));
      at++;
    } else if (LIST_ITEM.test(line)) {
      endParagraph();
      blocks.push(list(taken((next) => LIST_ITEM.test(next))));
    } else if (line.trim().startsWith('|') && isTableSeparator(lines[at + 1] ?? '')) {
      endParagraph();
      blocks.push(table(taken((next) => next.trim().startsWith('|'))));
    } else if (/^>\s?/.test(line)) {
      endParagraph();
      const quoted = taken((next) => /^>\s?/.test(next)).map((next) => next.replace(/^>\s?/, ''));
      blocks.push(node('blockquote', inline(quoted.join(' '))));
    } else {
      paragraph.push(line.trim());
      at++;
    }
  }
  endParagraph();
  return blocks;
}
