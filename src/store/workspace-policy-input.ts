import * as z from 'zod';
import { Id } from '../domain/ports/record-types.ts';
import { LOCAL_TIME_PATTERN } from '../time/local-time.ts';

// Apart from `workspaces.ts` (which loads the AWS SDK): the settings modal's form parses it in the
// Slack function, whose listeners all load before its first ack.

const Credits = z.number().int().positive();

/** What an admin sets: absent means "the environment's default", `null` means "none". */
export const WorkspacePolicyInputSchema = z.object({
  /** Users the workspace's admins named who may manage these settings too (src/domain/workspace-admins.ts). */
  appManagerUserIds: z.array(Id).optional(),
  /** Slack user ids who may confirm anybody's request. */
  approverUserIds: z.array(Id).optional(),
  /** A user group whose members may too (resolved by the caller: `usergroups.users.list`). */
  approverUserGroupId: Id.optional(),
  dailyCap: Credits.nullable().optional(),
  approvalThreshold: Credits.nullable().optional(),
  /** Defaults for new digest subscriptions in this workspace. */
  digestDefaults: z
    .object({
      time: z.string().regex(LOCAL_TIME_PATTERN, 'expected HH:MM').optional(),
      timeZone: z.string().min(1).optional(),
    })
    .optional(),
});
export type WorkspacePolicyInput = z.infer<typeof WorkspacePolicyInputSchema>;
