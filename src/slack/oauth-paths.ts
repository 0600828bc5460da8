/**
 * Where a distributed app answers OAuth (Bolt's default paths), on the same Function URL as Slack's
 * requests. Apart from `oauth.ts` so the stack can name them without loading the OAuth library.
 */
export const OAUTH_PATHS = { install: '/slack/install', redirect: '/slack/oauth_redirect' } as const;
