import type { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import type { WatchSettings } from '../../../src/domain/ports/index.ts';
import { createLogger } from '../../../src/platform/log.ts';
import {
  dispatchDueWatches,
  INLINE_CHECK_RESERVE_MS,
  type WatchCheckRequest,
  type WatchDelivery,
  WATCH_CHECK_RETRY_AFTER_MS,
  watchCheckOf,
} from '../../../src/scheduling/watch-dispatch.ts';
import { WATCH_LANES_PER_WORKSPACE, watchQueueSender } from '../../../src/scheduling/watch-queue.ts';
import type { ScheduledWorkspace } from '../../../src/store/index.ts';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const logger = createLogger({ level: 'error', write: () => {} });

const workspace = (teamId: string, paused?: ScheduledWorkspace['paused']): ScheduledWorkspace => ({
  type: 'scheduledWorkspace' as ScheduledWorkspace['type'],
  teamId,
  registeredAt: '2026-11-01T00:00:00.000Z',
  ...(paused ? { paused } : {}),
});

const watch = (teamId: string, channelId: string, revision = 1): WatchSettings =>
  ({
    teamId,
    channelId,
    revision,
    status: 'on',
    nextCheckAt: '2026-12-01T09:00:00.000Z',
  }) as WatchSettings;

/** Due watches per team (`count` channels each), read earliest first as the store does. */
function world(dueByTeam: Record<string, number>, teams = Object.keys(dueByTeam).map((id) => workspace(id))) {
  const reads: string[] = [];
  return {
    reads,
    deps: (delivery: WatchDelivery, servable = (_team: ScheduledWorkspace) => Promise.resolve(true)) => ({
      workspaces: { list: () => Promise.resolve(teams) },
      dueIn: (teamId: string, { limit }: { limit: number }) => {
        reads.push(teamId);
        const count = Math.min(dueByTeam[teamId] ?? 0, limit);
        return Promise.resolve(Array.from({ length: count }, (_, index) => watch(teamId, `C${index}`)));
      },
      servable,
      delivery,
      logger,
      now: () => NOW,
    }),
  };
}

/** A queue delivery that records what it was given. */
function recordingQueue() {
  const sent: WatchCheckRequest[] = [];
  const delivery: WatchDelivery = {
    kind: 'queue',
    send: (requests) => {
      sent.push(...requests);
      return Promise.resolve({ sent: requests.length, failed: 0 });
    },
  };
  return { sent, delivery };
}

describe('the hourly watch run', () => {
  it("hands on every workspace's first due channel before any workspace's second", async () => {
    const { deps } = world({ TBIG: 40, TA: 1, TB: 2 });
    const { sent, delivery } = recordingQueue();

    const summary = await dispatchDueWatches(deps(delivery));

    expect(summary).toMatchObject({ workspaces: 3, due: 43, sent: 43, failed: 0 });
    const firstThree = new Set(sent.slice(0, 3).map((request) => request.teamId));
    expect(firstThree).toEqual(new Set(['TBIG', 'TA', 'TB']));
    expect(
      sent
        .slice(3, 5)
        .map((request) => request.teamId)
        .sort(),
    ).toEqual(['TB', 'TBIG']);
  });

  it('skips a paused workspace without reading it, and one that cannot be served, and serves the others', async () => {
    const later = new Date(NOW.getTime() + 3600_000).toISOString();
    const paused = workspace('TPAUSED', {
      reason: 'no-service-key',
      since: NOW.toISOString(),
      retryAt: later,
      attempts: 1,
    });
    const { deps, reads } = world({ TPAUSED: 3, TGONE: 2, TOK: 1 }, [
      paused,
      workspace('TGONE'),
      workspace('TOK'),
    ]);
    const { sent, delivery } = recordingQueue();

    await dispatchDueWatches(deps(delivery, (team) => Promise.resolve(team.teamId !== 'TGONE')));

    expect(reads).not.toContain('TPAUSED');
    expect(sent.map((request) => request.teamId)).toEqual(['TOK']);
  });

  it('names a due slot the same in every run, and a new slot when the watch changed', () => {
    const due = watch('T1', 'C1', 4);
    const first = watchCheckOf(due, NOW);
    const anHourLater = watchCheckOf(due, new Date(NOW.getTime() + 3600_000));
    const changed = watchCheckOf({ ...due, revision: 5 }, NOW);

    expect(anHourLater).toEqual(first);
    expect(changed.checkId).not.toBe(first.checkId);
  });

  it('gives a slot still due long after (its claimed check died) a new check id', () => {
    const due = watch('T1', 'C1');
    const stuck = new Date(Date.parse(due.nextCheckAt) + WATCH_CHECK_RETRY_AFTER_MS + 1);

    expect(watchCheckOf(due, stuck).checkId).not.toBe(watchCheckOf(due, NOW).checkId);
  });

  it('runs the checks inline without a queue, counts a failing one and goes on', async () => {
    const { deps } = world({ T1: 3 });
    const checked: string[] = [];
    const check = (request: WatchCheckRequest) => {
      checked.push(request.channelId);
      return request.channelId === 'C1' ? Promise.reject(new Error('service down')) : Promise.resolve({});
    };

    const summary = await dispatchDueWatches(deps({ kind: 'inline', check }));

    expect(checked).toEqual(['C0', 'C1', 'C2']);
    expect(summary).toMatchObject({ due: 3, checked: 2, failed: 1, sent: 0, outOfTime: false });
  });

  it('inline, starts no check once too little of the Lambda is left, leaving the rest due', async () => {
    const { deps } = world({ T1: 3 });
    const checked: string[] = [];
    let remaining = INLINE_CHECK_RESERVE_MS + 1;
    const check = (request: WatchCheckRequest) => {
      checked.push(request.channelId);
      remaining = INLINE_CHECK_RESERVE_MS - 1;
      return Promise.resolve({});
    };

    const summary = await dispatchDueWatches(deps({ kind: 'inline', check, remainingMs: () => remaining }));

    expect(checked).toEqual(['C0']);
    expect(summary).toMatchObject({ checked: 1, outOfTime: true });
  });
});

/** A fake SQS client: fails the entries `fail` picks (by attempt), records every batch. */
function fakeSqs(
  fail: (entryId: string, attempt: number) => { SenderFault: boolean } | undefined = () => undefined,
) {
  const batches: {
    QueueUrl?: string;
    Entries: {
      Id?: string;
      MessageBody?: string;
      MessageGroupId?: string;
      MessageDeduplicationId?: string;
    }[];
  }[] = [];
  let attempt = 0;
  const client = {
    send: (command: SendMessageBatchCommand) => {
      attempt++;
      const input = command.input as (typeof batches)[number];
      batches.push(input);
      const Failed = input.Entries.flatMap((entry) => {
        const failure = fail(entry.Id ?? '', attempt);
        return failure ? [{ Id: entry.Id, SenderFault: failure.SenderFault, Code: 'X' }] : [];
      });
      return Promise.resolve({ Successful: [], Failed });
    },
  };
  return { client: client as never, batches };
}

const requests = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ teamId: 'T1', channelId: `C${index}`, checkId: 'r1@x' }));

describe('sending checks to the watch queue', () => {
  const sleep = () => Promise.resolve();

  it('sends 10 messages a call, each body one check', async () => {
    const { client, batches } = fakeSqs();
    const send = watchQueueSender({ client, queueUrl: 'https://sqs.local/1/watch', logger, sleep });

    const result = await send(requests(23));

    expect(batches.map((batch) => batch.Entries.length)).toEqual([10, 10, 3]);
    expect(JSON.parse(batches[2]?.Entries[0]?.MessageBody ?? '')).toEqual(requests(23)[20]);
    expect(result).toEqual({ sent: 23, failed: 0 });
  });

  it('sends again only the entries SQS failed for a passing reason', async () => {
    const { client, batches } = fakeSqs((id, attempt) =>
      (id === '3' && attempt === 1) || id === '5' ? { SenderFault: id === '5' } : undefined,
    );
    const send = watchQueueSender({ client, queueUrl: 'https://sqs.local/1/watch', logger, sleep });

    const result = await send(requests(8));

    expect(batches.map((batch) => batch.Entries.map((entry) => entry.Id))).toEqual([
      ['0', '1', '2', '3', '4', '5', '6', '7'],
      ['3'],
    ]);
    expect(result).toEqual({ sent: 7, failed: 1 });
  });

  it('gives up on an entry that keeps failing, and counts it (it stays due for the next run)', async () => {
    const { client, batches } = fakeSqs((id) => (id === '0' ? { SenderFault: false } : undefined));
    const send = watchQueueSender({ client, queueUrl: 'https://sqs.local/1/watch', logger, sleep });

    expect(await send(requests(2))).toEqual({ sent: 1, failed: 1 });
    expect(batches).toHaveLength(4);
  });

  it("on a FIFO queue, deduplicates a slice sent twice, and not a check's next slice", async () => {
    const { client, batches } = fakeSqs();
    const send = watchQueueSender({ client, queueUrl: 'https://sqs.local/1/watch.fifo', logger, sleep });
    const [first] = requests(1);
    if (!first) throw new Error('no request');

    await send([first, first, { ...first, slice: 1 }, { ...first, teamId: 'T2' }]);

    const [once, twice, next, other] = batches[0]?.Entries ?? [];
    expect(twice?.MessageDeduplicationId).toBe(once?.MessageDeduplicationId);
    expect(next?.MessageDeduplicationId).not.toBe(once?.MessageDeduplicationId);
    expect(other?.MessageDeduplicationId).not.toBe(once?.MessageDeduplicationId);
  });

  it("on a FIFO queue, spreads a workspace's channels over its lanes, never sharing one with another workspace", async () => {
    const { client, batches } = fakeSqs();
    const send = watchQueueSender({ client, queueUrl: 'https://sqs.local/1/watch.fifo', logger, sleep });
    const both = [...requests(10), ...requests(10).map((request) => ({ ...request, teamId: 'T2' }))];

    await send([...both, { teamId: 'T1', channelId: 'C0', checkId: 'r1@x', slice: 3 }]);

    const entries = batches.flatMap((batch) => batch.Entries);
    const groupsOf = (teamId: string) =>
      new Set(
        entries
          .filter((entry) => (JSON.parse(entry.MessageBody ?? '{}') as { teamId: string }).teamId === teamId)
          .map((entry) => entry.MessageGroupId),
      );
    expect(groupsOf('T1').size).toBe(WATCH_LANES_PER_WORKSPACE);
    expect(groupsOf('T2').size).toBe(WATCH_LANES_PER_WORKSPACE);
    expect([...groupsOf('T1')].filter((group) => groupsOf('T2').has(group))).toEqual([]);
    // A channel's next slice joins its own lane.
    expect(entries.at(-1)?.MessageGroupId).toBe(entries[0]?.MessageGroupId);
  });

  it('runs inline every due channel’s first slice before any channel’s second', async () => {
    const { deps } = world({ T1: 1, T2: 1 });
    const ran: string[] = [];
    const check = (request: WatchCheckRequest) => {
      ran.push(`${request.teamId}/${request.slice ?? 0}`);
      const slice = request.slice ?? 0;
      return Promise.resolve(
        request.teamId === 'T1' && slice < 2 ? { next: { ...request, slice: slice + 1 } } : {},
      );
    };

    const summary = await dispatchDueWatches(deps({ kind: 'inline', check }));

    expect(ran.slice(0, 2).map((item) => item.slice(-1))).toEqual(['0', '0']);
    expect(ran.slice(2)).toEqual(['T1/1', 'T1/2']);
    expect(summary).toMatchObject({ checked: 4, outOfTime: false });
  });
});
