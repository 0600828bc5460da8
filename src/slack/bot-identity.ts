import { WebClient } from '@slack/web-api';
import { webClientOptions } from './web-client.ts';

/** Who the bot is and which workspace it serves, from one `auth.test` (when the ids are not configured). */
export async function botIdentityOf(
  botToken: string,
  slackApiUrl: string | undefined,
  configured: { teamId?: string | undefined; botUserId?: string | undefined },
) {
  const identity = await new WebClient(botToken, webClientOptions(slackApiUrl)).auth.test();
  const installedTeamId = configured.teamId ?? identity.team_id;
  if (!installedTeamId) throw new Error('SLACK_TEAM_ID is unset and auth.test returned no team_id');
  return {
    botId: identity.bot_id ?? '',
    botUserId: configured.botUserId ?? identity.user_id ?? '',
    installedTeamId,
  };
}
