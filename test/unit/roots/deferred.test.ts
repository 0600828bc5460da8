import { describe, expect, it } from 'vitest';
import { rebuiltOnChange } from '../../../src/roots/deferred.ts';

describe('rebuiltOnChange (the Slack function rebuilt for a rotated secret)', () => {
  it('builds once per value, shared by every caller, and again when the value changes', async () => {
    let secret = { signingSecret: 'first' };
    const builds: string[] = [];
    const handler = rebuiltOnChange(
      () => Promise.resolve(secret),
      (value) => {
        builds.push(value.signingSecret);
        return { verifiesWith: value.signingSecret };
      },
    );

    const [a, b] = await Promise.all([handler(), handler()]);
    expect(a).toBe(b);
    expect(await handler()).toBe(a);
    secret = { signingSecret: 'rotated' };
    expect(await handler()).toEqual({ verifiesWith: 'rotated' });

    expect(builds).toEqual(['first', 'rotated']);
  });
});
