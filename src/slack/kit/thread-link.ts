/** A link to a thread: the one of the card an unlock was confirmed on, or a card that waits for an approver. */
export function threadLink(channelId: string, threadTs: string): string {
  return `https://slack.com/archives/${encodeURIComponent(channelId)}/p${threadTs.replace('.', '')}`;
}
