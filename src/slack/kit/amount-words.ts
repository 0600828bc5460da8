import { amountMeant } from '../../domain/amount-meant.ts';

/**
 * ` Did you mean \`12,000\`?` after a refused amount written another way (`12.000`, `€12k`): the number
 * read, in the form the command takes; empty when nothing sure is read or it is what was typed.
 * `whole`: the amount is a count of credits, so a fraction offers nothing.
 */
export function didYouMeanAmount(word: string, { whole }: { whole: boolean }): string {
  const hundredths = amountMeant(word);
  if (hundredths === undefined || (whole && hundredths % 100 !== 0)) return '';
  const written = (hundredths / 100).toLocaleString('en-US', {
    minimumFractionDigits: hundredths % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return written === word.trim() ? '' : ` Did you mean \`${written}\`?`;
}
