import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEV_CHANNELS, DEV_USERS, type DevStack, startDevStack } from '../../../local/dev-stack.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { visibleText } from '../../support/bot.ts';

/**
 * `npm run dev`: "Run now" runs the scheduled jobs and says in words what each did, and an appearance
 * from the page ("A new exhibitor appears") alerts at the next check.
 */
describe('the local stack’s watch run', () => {
  let stack: DevStack;
  const channel = DEV_CHANNELS.general;
  const command = async (text: string, where: string = channel) => {
    await stack.slack.sendCommand({ user: DEV_USERS.alice.id, channel: where, text });
    await stack.idle();
  };
  const alerts = () =>
    stack.slack.messages(channel).filter((m) => m.visibleTo === undefined && /will exhibit/.test(m.text));
  /** Clicks the page's "Run now" for `job`; what the page shows of its answer. */
  const runNow = async (job: string) => {
    const response = await fetch(`${stack.slackUrl}/local/jobs/${job}`, { method: 'POST' });
    expect(response.status).toBe(200);
    return (await response.json()) as { ok: boolean; said?: string; result?: unknown };
  };

  beforeAll(async () => {
    // The jobs' timers as on AWS (hourly for the watch run): here only Run now runs them.
    stack = await startDevStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  });
  afterAll(() => stack.stop());

  it('says why nothing ran when no channel watches or has a digest', async () => {
    await expect(runNow('check-watches')).resolves.toEqual({
      ok: true,
      said: 'No channel watches an account: `/events watch add <company>` in a channel starts a watch list.',
    });
    await expect(runNow('send-digests')).resolves.toEqual({
      ok: true,
      said: 'No digest due: no channel has a digest. `/events digest on 08:00` in a channel starts one.',
    });
    await expect(runNow('poll-unlock-tasks')).resolves.toEqual({
      ok: true,
      said: 'No unlock task is waiting for the service: results already in their threads.',
    });
  });

  it('alerts at the next check after "A new exhibitor appears", and Run now says where', async () => {
    // Prepare: the company watched; Run now checks the channel the add made due, then finds none due
    await command(`watch add ${KNOWN_COMPANY_NAME}`);
    await expect(runNow('check-watches')).resolves.toEqual({
      ok: true,
      said: 'Checked 1 channel (#general), 1 account looked up; no alert: nothing new for the watched accounts.',
    });
    expect(alerts()).toEqual([]);
    const idle = await runNow('check-watches');
    expect(idle.said).toMatch(/^No watch check due\. Next: #general at \d\d:\d\d UTC \(in 24 hours\)\.$/);

    // Act: "A new exhibitor appears" on the page, then Run now
    const appeared = await fetch(`${stack.slackUrl}/local/sim/new-exhibitor`, { method: 'POST' });
    const { message } = (await appeared.json()) as { message: string };
    const eventName = /now exhibits at (.+?), /.exec(message)?.[1];
    if (!eventName) throw new Error(`the page named no show: ${message}`);
    const run = await runNow('check-watches');

    // Assess: the page said the channel is due; one alert naming the show, and Run now says so
    expect(message).toContain('The watching channels (#general) are due for a check now');
    const posted = alerts();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] as (typeof posted)[number])).toContain(eventName);
    expect(visibleText(posted[0] as (typeof posted)[number])).toContain(KNOWN_COMPANY_NAME);
    expect(run.said).toBe('Checked 1 channel (#general), 1 account looked up; 1 alert posted in #general.');
  });

  it('says when a channel’s digest is due instead of a count', async () => {
    // Prepare
    await command('digest on 08:00 Europe/Berlin', DEV_CHANNELS.events);

    // Act
    const run = await runNow('send-digests');

    // Assess
    expect(run).toEqual({ ok: true, said: "No digest due: #events's digest is at 08:00 Europe/Berlin." });
  });
});
