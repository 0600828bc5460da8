/**
 * When a show is past (issue 36): once its last day, the service's `dateEnd` (else its `dateStart`),
 * is before today. The service's dates are calendar days (`YYYY-MM-DD`); today is the UTC date, so a
 * show is still ahead on its last day. A show without dates is not past. The one rule every list,
 * card and the plan read.
 */
export interface ShowDays {
  dateStart?: string | null;
  dateEnd?: string | null;
}

export function isPastShow(show: ShowDays, today: string): boolean {
  const lastDay = show.dateEnd || show.dateStart;
  return typeof lastDay === 'string' && lastDay.slice(0, 10) < today;
}
