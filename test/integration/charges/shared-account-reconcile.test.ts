import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import { visibleText } from '../../support/bot.ts';
import { confirmationIdOf } from '../../support/charge-harness.ts';
import { createKillSwitch } from '../../support/kill-switch.ts';
import { installAs, startTenantStack, type Tenant, type TenantStack } from '../../support/tenant-harness.ts';

/**
 * Two workspaces connected to one service account (the distributed app, its real Slack handler,
 * workers and scheduled reconciler over DynamoDB Local, the simulator and the fake Slack): the same
 * unlock confirmed in both is paid once by the account, and booked once, to the workspace whose
 * charge paid it.
 */

const EVENT = '26855';
type Sequence = ReturnType<TenantStack['begin']>;

let stack: TenantStack;
beforeAll(async () => {
  stack = await startTenantStack(2);
}, 60_000);
afterEach(() => stack.end());
afterAll(() => stack?.close());

/** A and B of a fresh slot, installed by their admins, both connected to one service account. */
async function twoWorkspacesOnOneAccount() {
  const seq = stack.begin();
  const [A, B] = seq.tenants;
  const key = stack.newKey();
  for (const tenant of [A, B]) {
    await installAs(stack, { teamId: tenant.teamId, userId: tenant.admins[0] });
    await seq.truth.workspaces.putServiceKey({
      teamId: tenant.teamId,
      serviceKey: key,
      connectedBy: tenant.admins[0],
    });
    await seq.truth.workspaces.putPolicy(
      tenant.teamId,
      { approverUserIds: [tenant.approver] },
      tenant.admins[0],
    );
  }
  return { seq, A, B, key };
}

/** The newest confirmation card in `tenant`'s channel. */
const newestCard = (tenant: Tenant) =>
  stack.slack
    .messages(tenant.channel)
    .filter((m) => !m.threadTs && !m.visibleTo && confirmationIdOf(m))
    .at(-1);

/** What the card at `ts` shows now. */
const cardText = (tenant: Tenant, ts: string) =>
  visibleText(stack.slack.messages(tenant.channel).find((m) => m.ts === ts) ?? { text: '', blocks: [] });

/** `tenant`'s member asks to unlock the event and its approver confirms the card. */
async function confirmUnlock(seq: Sequence, tenant: Tenant) {
  const { member, approver, channel, teamId } = tenant;
  await stack.slack.sendCommand({ user: member, channel, text: `unlock ${EVENT}`, teamId });
  await seq.idle();
  const card = newestCard(tenant);
  const id = card && confirmationIdOf(card);
  if (!card || !id) throw new Error(`no confirmation card in ${teamId}`);
  await stack.slack.click({ user: approver, channel, ts: card.ts, actionId: 'confirm.yes', teamId });
  await seq.idle();
  return { id, ts: card.ts };
}

/** How many calls a charge job makes before it calls the service's unlock (a full charge, counted). */
async function callsBeforeTheUnlock(): Promise<number> {
  const { seq, A } = await twoWorkspacesOnOneAccount();
  const counting = createKillSwitch();
  seq.killNextCharge(counting);
  await confirmUnlock(seq, A);
  const calls = counting.trace.indexOf('eis.events.unlock');
  expect(calls).toBeGreaterThan(0);
  await stack.end();
  return calls;
}

describe('an unlock confirmed in two workspaces on one service account', () => {
  it('B’s worker dies before its call, A’s charge pays: the reconciler books A 2,000 and B nothing', async () => {
    // Prepare: B's worker dies after the charge's write-ahead step, before calling the service.
    const beforeTheCall = await callsBeforeTheUnlock();
    const { seq, A, B, key } = await twoWorkspacesOnOneAccount();
    const killed = createKillSwitch(beforeTheCall);
    seq.killNextCharge(killed);
    const inB = await confirmUnlock(seq, B);
    expect(killed.killed).toBe(true);
    expect(killed.trace).not.toContain('eis.events.unlock');
    const inA = await confirmUnlock(seq, A);
    expect(stack.sim.ledger(key)).toMatchObject([{ credits: 2000 }]);

    // Act: the scheduled reconciler, past the charge's deadline.
    stack.clock.advanceSeconds(RECONCILE_AFTER_SECONDS.charging + 1);
    await (await seq.scheduled()).reconcileConfirmations();

    // Assess: the account paid 2,000 once; A's ledger books it, B's books nothing and frees its reservation.
    const since = new Date(stack.clock.now().getTime() - 3_600_000);
    expect(await seq.truth.ledger.listSince(A.teamId, since)).toMatchObject([
      { confirmationId: inA.id, status: 'charged', credits: 2000 },
    ]);
    expect(await seq.truth.ledger.listSince(B.teamId, since)).toMatchObject([
      { confirmationId: inB.id, status: 'refused', credits: 0 },
    ]);
    const day = stack.clock.now().toISOString().slice(0, 10);
    expect(await seq.truth.charges.spent(serviceAccountId(key), day)).toBe(2000);
    expect(stack.sim.ledger(key)).toHaveLength(1);
    expect((await seq.truth.confirmations.get(inB.id))?.status).toBe('failed');
    const card = cardText(B, inB.ts);
    expect(card).toContain('nothing was charged for this');
    expect(card).toContain('another request on the same service account had already unlocked it');
  });
});
