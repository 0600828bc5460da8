import type { DigestSubscription, FitScoreCacheEntry } from './records.ts';

/** Which channel's subscription, with the time and zone its next run is computed from. */
export type DigestSchedule = Pick<DigestSubscription, 'teamId' | 'channelId' | 'time' | 'timeZone'>;

/** A digest run done: when it ran, and when the subscription is next due. */
export interface DigestRun {
  ranAt: Date;
  nextRunAt: Date;
}

/** The channels' digest subscriptions, as each digest run works through them. */
export interface DigestSubscriptionRepository {
  /** Active subscriptions whose next run is at or before `now`, earliest first (eventually consistent). */
  due: (query: { now: Date; limit: number }) => Promise<DigestSubscription[]>;
  /**
   * Records a run at `ranAt` and stores `nextRunAt`, computed from the subscription's time and zone:
   * only while it is active with that time and zone, so a concurrent change wins. Returns the
   * subscription as it stands, or null when it is gone or disabled.
   */
  advance: (subscription: DigestSchedule, run: DigestRun) => Promise<DigestSubscription | null>;
  /** Stops the subscription (the bot cannot post in the channel); false when there is none. */
  disable: (teamId: string, channelId: string, reason: string) => Promise<boolean>;
  /** One digest per channel per local day: true for exactly one caller per `localDate`. */
  claimDay: (teamId: string, channelId: string, localDate: string) => Promise<boolean>;
}

/** Fit scores cached per event per day. */
export interface FitScoreCache {
  get: (eventId: string, day: string) => Promise<FitScoreCacheEntry | null>;
  /** Stores (or replaces) the value; it must be plain JSON. */
  put: (eventId: string, day: string, value: unknown) => Promise<FitScoreCacheEntry>;
}
