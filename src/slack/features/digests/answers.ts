import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import { mayManageDigest } from '../../kit/digest-access.ts';
import type { DIGEST_COMMANDS } from './commands.ts';
import { type DigestCommandDeps, runDigestCommand } from './jobs.ts';

/** The digests room's answer: `digest on | off | status | now` for the channel, then the "working…" line goes. */
export function digestAnswers({ deps }: AnswerTools): Answers<typeof DIGEST_COMMANDS> {
  const { store, slack } = deps;
  const digestDeps: DigestCommandDeps = {
    subscriptions: store.digestSubscriptions,
    slack,
    userTimeZone: deps.userTimeZone,
    mayManage: async (manager) =>
      mayManageDigest(
        { access: deps.digestAccess, policy: await deps.policyIn(manager.channelId), logger: deps.logger },
        manager,
      ),
    digestDefaults: deps.digestDefaults,
    eis: deps.eis,
    ledger: store.ledger,
    unlockTasks: store.unlockTasks,
    fitScores: store.fitScores(deps.accountId),
    logger: deps.logger,
    now: deps.now,
  };
  return {
    digest: async (command, context) => {
      await runDigestCommand(command, context, digestDeps);
      if (context.placeholder) await slack.deleteOriginal(context);
    },
  };
}
