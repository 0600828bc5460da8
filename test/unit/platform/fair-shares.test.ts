import { describe, expect, it } from 'vitest';
import { createCallShares } from '../../../src/platform/fair-shares.ts';
import { POLL_IN_FLIGHT } from '../../../src/eis/limiter.ts';

/** A call that ends when the test says so; notes who ran, and when. */
function gatedCalls() {
  const started: string[] = [];
  const ends: (() => void)[] = [];
  const call = (name: string) => () =>
    new Promise<void>((end) => {
      started.push(name);
      ends.push(end);
    });
  const endOne = async () => {
    ends.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { started, call, endOne };
}

describe('createCallShares', () => {
  it('keeps calls in flight within the total, a member’s share and a task’s share', async () => {
    // Prepare
    const shares = createCallShares(POLL_IN_FLIGHT);
    const { started, call } = gatedCalls();
    let peak = 0;
    const watched = (name: string) => () => {
      peak = Math.max(peak, shares.inFlight);
      return call(name)();
    };

    // Act: one member's three tasks of many calls each.
    for (let task = 0; task < 3; task++)
      for (let i = 0; i < 10; i++) void shares.run({ member: 'A', task: `t${task}` }, watched(`t${task}`));
    await new Promise((resolve) => setTimeout(resolve, 0));

    // Assess
    expect(started).toHaveLength(Math.min(POLL_IN_FLIGHT.perMember, 3 * POLL_IN_FLIGHT.perTask));
    for (let task = 0; task < 3; task++)
      expect(started.filter((name) => name === `t${task}`).length).toBeLessThanOrEqual(
        POLL_IN_FLIGHT.perTask,
      );
    expect(peak).toBeLessThanOrEqual(POLL_IN_FLIGHT.total);
  });

  it('gives a freed place to the member with the fewest calls in flight, whoever waited longer', async () => {
    // Prepare: member A fills its share, and queues more; then B asks once.
    const shares = createCallShares({ total: 2, perMember: 2, perTask: 2 });
    const { started, call, endOne } = gatedCalls();
    for (let i = 0; i < 4; i++) void shares.run({ member: 'A', task: 'a' }, call('A'));
    void shares.run({ member: 'B', task: 'b' }, call('B'));
    await new Promise((resolve) => setTimeout(resolve, 0));

    // Act
    await endOne();

    // Assess
    expect(started).toEqual(['A', 'A', 'B']);
  });
});
