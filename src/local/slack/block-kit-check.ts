/**
 * Checks a message against the Block Kit limits Slack enforces, so the fake Slack (and the dev page)
 * can warn where real Slack would reject the message with `invalid_blocks`.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const textOf = (value: unknown): string =>
  isObject(value) && typeof value.text === 'string' ? value.text : '';

export function blockKitViolations(text: string, blocks: unknown[]): string[] {
  const problems: string[] = [];
  if (!text && blocks.length === 0) problems.push('message has neither text nor blocks');
  if (blocks.length > 0 && !text) problems.push('message has blocks but no fallback text');
  if (blocks.length > 50) problems.push(`${blocks.length} blocks (max 50)`);
  blocks.forEach((block, index) => {
    const where = `block ${index + 1}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      problems.push(`${where}: not a block`);
      return;
    }
    if (block.type === 'header' && textOf(block.text).length > 150)
      problems.push(`${where}: header text over 150`);
    if (block.type === 'section') {
      if (!block.text && !block.fields) problems.push(`${where}: section needs text or fields`);
      if (textOf(block.text).length > 3000) problems.push(`${where}: section text over 3000`);
      const fields = Array.isArray(block.fields) ? block.fields : [];
      if (fields.length > 10) problems.push(`${where}: ${fields.length} fields (max 10)`);
      if (fields.some((field) => textOf(field).length > 2000))
        problems.push(`${where}: field text over 2000`);
    }
    if (block.type === 'context') {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length === 0 || elements.length > 10)
        problems.push(`${where}: context needs 1-10 elements`);
    }
    if (block.type === 'actions') {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      // action_id must be unique within its block.
      const actionIds = new Set<string>();
      if (elements.length === 0 || elements.length > 25)
        problems.push(`${where}: actions needs 1-25 elements`);
      for (const element of elements) {
        if (!isObject(element)) continue;
        const label = textOf(element.text);
        if (label.length > 75) problems.push(`${where}: button text over 75`);
        if (typeof element.value === 'string' && element.value.length > 2000)
          problems.push(`${where}: button value over 2000`);
        if (typeof element.action_id === 'string') {
          if (actionIds.has(element.action_id))
            problems.push(`${where}: duplicate action_id ${element.action_id}`);
          actionIds.add(element.action_id);
        }
      }
    }
  });
  return problems;
}
