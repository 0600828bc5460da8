import type { App } from '@slack/bolt';
import * as z from 'zod';
import { registerCommandButtons } from '../../listeners/command-buttons.ts';
import type { ListenerDeps } from '../../listeners/deps.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { WatchRowValueSchema } from './buttons.ts';

const ShowAllValueSchema = z.object({ page: z.number().int().min(1).max(1000).optional() });

/** A watch alert's buttons, each its `/events` command: Fit, People (the account's), Mute, Show all. */
export function registerWatch(app: App, deps: ListenerDeps): void {
  registerCommandButtons(app, deps, {
    [ACTION_IDS.watchFit]: (value) => `fit ${WatchRowValueSchema.parse(value).eventId}`,
    [ACTION_IDS.watchPeople]: (value) => {
      const row = WatchRowValueSchema.parse(value);
      return `people ${row.eventId}${row.exhibitorId ? ` exhibitor:${row.exhibitorId}` : ''}`;
    },
    [ACTION_IDS.watchMute]: (value) => `watch mute ${WatchRowValueSchema.parse(value).label}`,
    [ACTION_IDS.watchShowAll]: (value) => `watch list ${ShowAllValueSchema.parse(value).page ?? 1}`,
  });
}
