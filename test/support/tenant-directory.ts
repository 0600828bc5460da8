import type { WorkspaceUser } from '../../local/fake-slack/fake-slack.ts';
import { addDays } from '../../simulator/seed.ts';

/** The tenant stack's directory: who is who in each sequence's workspaces, and the sequences' dates. */

/** Who is who in a workspace of one sequence; the ids carry the workspace, so two never share one. */
export interface Tenant {
  name: 'A' | 'B' | 'C';
  teamId: string;
  channel: string;
  /** Workspace admins (Slack's `is_admin`); the first installs the app. */
  admins: [string, string];
  member: string;
  /** A spend approver, no admin. */
  approver: string;
  /** A second channel of the workspace (the watch's: one workspace, two channels watching). */
  side: string;
  /**
   * A member of another organisation in the workspace's shared channels (Slack Connect): an admin and
   * owner of their own workspace, which is not this one.
   */
  external: string;
  /** The external member's own workspace. */
  externalTeam: string;
  /** A guest of the workspace (Slack's `is_restricted`): in its channels, never a member. */
  guest: string;
}

/**
 * Every sequence starts at the same business time, the 2nd of next month at 09:00 UTC: in the future
 * (DynamoDB Local's TTL deletion goes by the real clock), a week from a month's end and days from its
 * start, so a sequence can pass a week within one month or cross into the next, and replaying one
 * sequence meets the same dates.
 */
export const sequenceStartFor = (today: Date) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 2, 9));
export const SEQUENCE_START = sequenceStartFor(new Date());
/**
 * The simulator's today (its shows are dated from it): a fixed distance before the sequences' start,
 * whatever day the suite runs on, so the watch pool always finds companies whose shows all lie beyond
 * what the free path searches (test/resilience/tenant-watch-pool.test.ts walks every date).
 */
export const simulatorTodayFor = (sequenceStart: Date) =>
  addDays(sequenceStart.toISOString().slice(0, 10), -4);

export const tenantIn = (slot: number, name: Tenant['name']): Tenant => {
  const id = `${slot}${name}`;
  return {
    name,
    teamId: `T0M${id}`,
    channel: `C0M${id}`,
    admins: [`U0ADM${id}`, `U0ADN${id}`],
    member: `U0MEM${id}`,
    approver: `U0APP${id}`,
    side: `C0S${id}`,
    external: `U0EXT${id}`,
    externalTeam: `T0X${id}`,
    guest: `U0GST${id}`,
  };
};
export const enterpriseIn = (slot: number) => `E0M${slot}`;

/** Every tenant of every slot, with its users as the fake Slack knows them. */
export function directory(slots: number) {
  const tenants = Array.from({ length: slots }, (_, slot) =>
    (['A', 'B', 'C'] as const).map((name) => tenantIn(slot, name)),
  ).flat();
  const users: Record<string, WorkspaceUser> = {};
  for (const t of tenants) {
    for (const id of t.admins)
      users[id] = { name: id.toLowerCase(), tz: 'UTC', teamId: t.teamId, isAdmin: true };
    for (const id of [t.member, t.approver])
      users[id] = { name: id.toLowerCase(), tz: 'UTC', teamId: t.teamId };
    users[t.guest] = { name: t.guest.toLowerCase(), tz: 'UTC', teamId: t.teamId, isGuest: true };
    users[t.external] = {
      name: t.external.toLowerCase(),
      tz: 'UTC',
      teamId: t.externalTeam,
      isAdmin: true,
      isOwner: true,
    };
  }
  const enterprises: Record<string, string[]> = {};
  for (let slot = 0; slot < slots; slot++) enterprises[enterpriseIn(slot)] = [tenantIn(slot, 'C').teamId];
  return { tenants, users, enterprises };
}
