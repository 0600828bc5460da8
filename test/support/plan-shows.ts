import type { SeededEvent } from '../../simulator/server.ts';
import { quarterOfShow } from '../../src/domain/plan/index.ts';

/**
 * Shows a plan test can add, soonest first, the first two in one quarter: shows that start after the
 * simulator's today (so still ahead if the clock passes midnight during the run), with something to
 * unlock. On a quarter's last days the soonest show may be the only one left in its quarter, so the
 * pair is the first two of the earliest quarter that has two.
 */
export function showsForPlan(events: readonly SeededEvent[], today: string): SeededEvent[] {
  const open = events
    .filter((e) => e.exhibitorCount > 0 && e.personnelCount > 0 && e.dateStart > today)
    .sort((x, y) => x.dateStart.localeCompare(y.dateStart));
  const quarter = (e: SeededEvent) => quarterOfShow(e)?.key;
  const first = open.find((e) => open.some((o) => o !== e && quarter(o) === quarter(e)));
  const second = first && open.find((e) => e !== first && quarter(e) === quarter(first));
  if (!first || !second) throw new Error('the simulator has no two shows ahead in one quarter');
  return [first, second, ...open.filter((e) => e !== first && e !== second)];
}
