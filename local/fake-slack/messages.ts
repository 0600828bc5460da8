/** A message as the fake Slack keeps it (the dev page and the tests read these). */
export interface SlackMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: unknown[];
  user: string;
  /** The workspace of the bot token that posted it, when the fake's OAuth issued that token. */
  teamId?: string;
  /** Set on ephemeral messages: only this user sees it. */
  visibleTo?: string;
  edited?: boolean;
  warnings: string[];
  /** Files shared with the message (`files.uploadV2`), with their content as uploaded. */
  files?: FakeFile[];
}

/** A file the app uploaded (files.getUploadURLExternal, the upload, files.completeUploadExternal). */
export interface FakeFile {
  id: string;
  name: string;
  title: string;
  content: string;
}

/** The app's HTTP answer to a command or a click, and how long it took (Slack allows 3 s). */
export interface AppAnswer {
  status: number;
  body: string;
  ms: number;
}
