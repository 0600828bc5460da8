/**
 * What an amount written another way surely means, for a "did you mean": thousands grouped by dots
 * (`12.000`, `1.250.000`), a decimal comma (`12.000,50`, `99,5`), a `k` for thousands (`12k`, `2,5k`),
 * a currency sign or code before or after (`€12k`, `12.000 €`, `EUR12000`). Never taken as typed: the
 * command is refused and the number read is offered. Undefined when nothing sure is read.
 */

/** Signs and codes written beside an amount. */
const CURRENCY = /^(?:[€$£¥]|eur|usd|gbp|chf)\s*|\s*(?:[€$£¥]|eur|usd|gbp|chf)$/gi;

/** The amount, in hundredths, that `word` was meant to say; undefined when it reads no surer than as typed. */
export function amountMeant(word: string): number | undefined {
  const bare = word.trim().replace(CURRENCY, '').trim();
  const thousands = /^(.*?)k$/i.exec(bare);
  const number = readNumber(thousands ? (thousands[1] ?? '') : bare);
  if (number === undefined) return undefined;
  const hundredths = Math.round(number * (thousands ? 1000 : 1) * 100);
  return Number.isSafeInteger(hundredths) ? hundredths : undefined;
}

/** A number written with European or English marks: `12.000`, `12.000,50`, `12,5`, `12,000`, `12.5`. */
function readNumber(text: string): number | undefined {
  const european = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(text);
  if (european) return Number(`${(european[1] ?? '').replace(/\./g, '')}.${european[2] ?? '0'}`);
  const english = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (english) return Number(`${(english[1] ?? '').replace(/,/g, '')}.${english[2] ?? '0'}`);
  return undefined;
}
