import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormInputs } from '../../../local/fake-slack/fake-slack.ts';
import { ALICE, type Bot, startBot } from '../../support/bot.ts';

interface InputBlock {
  type: string;
  block_id?: string;
  element?: {
    type: string;
    initial_value?: string;
    initial_options?: { value: string }[];
    options?: { value: string }[];
  };
}

describe('the Filter… modals of the exhibitor and people lists, through the Slack handler', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  const inputsOf = (user: string) =>
    ((bot.slack.modal(user)?.view.blocks ?? []) as InputBlock[]).filter((block) => block.type === 'input');

  /** The form as Slack's client holds it when the modal opens: every prefilled value, by field. */
  const prefilled = (user: string): Record<string, string | string[]> =>
    Object.fromEntries(
      inputsOf(user).flatMap(({ block_id: field, element }): [string, string | string[]][] => {
        if (!field || !element) return [];
        if (element.initial_options) return [[field, element.initial_options.map(({ value }) => value)]];
        return element.initial_value === undefined ? [] : [[field, element.initial_value]];
      }),
    );

  const asForm = (fields: Record<string, string | string[] | null>): FormInputs =>
    Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, { value }]));

  /** The request the simulator received for `path` since request number `since`. */
  const requestTo = (path: string, since: number) =>
    bot.sim
      .requests()
      .slice(since)
      .find((request) => request.path === path);

  it('offers every exhibitor filter prefilled from the list, and submitting changes only what was changed', async () => {
    // Prepare: a list filtered by command words
    await bot.command('exhibitors 26855 payments country:Germany title:CTO, VP Sales');
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(card.visibleTo).toBe(ALICE.userId);

    // Act
    await bot.click(card, 'list.filter');

    // Assess: every filter word of the command is a field, the list's current ones filled in
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.filter');
    expect(modal?.warnings).toEqual([]);
    expect(inputsOf(ALICE.userId).map((block) => block.block_id)).toEqual([
      'keyword',
      'country',
      'category',
      'industry',
      'title',
      'level',
      'department',
    ]);
    const form = prefilled(ALICE.userId);
    expect(form).toEqual({ keyword: 'payments', country: 'Germany', title: 'CTO, VP Sales' });

    // Act: France for Germany, a level added, the job titles cleared; the keyword left as it was
    const since = bot.sim.requests().length;
    await bot.slack.submitForm({
      user: ALICE.userId,
      inputs: asForm({ ...form, country: 'France', level: 'vp', title: null }),
    });
    await bot.idle();

    // Assess: the service was asked with exactly the modal's values, and the card shows them
    expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
    const request = requestTo('/external/exhibitors/list', since);
    expect(request?.query).toMatchObject({
      event_id: '26855',
      keyword: 'payments',
      country: 'France',
      managementLevel: 'vp',
    });
    expect(request?.query).not.toHaveProperty('jobTitle');
    const filtered = bot.find((candidate) => candidate.ts === card.ts);
    expect(filtered.text).toContain('country:France');
    expect(filtered.text).toContain('level:vp');
    expect(filtered.text).not.toContain('title:');
    expect(filtered.warnings).toEqual([]);
  });

  it('offers the people sources as checkboxes, ticked as the list has them, and keeps the other filters', async () => {
    // Prepare
    await bot.command('people 26855 marketing level:director source:visitors');
    await bot.idle();
    const card = structuredClone(bot.last());

    // Act
    await bot.click(card, 'list.filter');

    // Assess
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.warnings).toEqual([]);
    const fields = Object.fromEntries(
      inputsOf(ALICE.userId).map((block): [string, string | undefined] => [
        block.block_id ?? '',
        block.element?.type,
      ]),
    );
    expect(fields).toEqual({
      query: 'plain_text_input',
      exhibitor: 'plain_text_input',
      department: 'plain_text_input',
      level: 'plain_text_input',
      source: 'checkboxes',
    });
    const form = prefilled(ALICE.userId);
    expect(form).toEqual({ query: 'marketing', level: 'director', source: ['visitors'] });

    // Act: exhibitor staff and social signals instead of visitors
    const since = bot.sim.requests().length;
    await bot.slack.submitForm({
      user: ALICE.userId,
      inputs: asForm({ ...form, source: ['exhibitor', 'social'] }),
    });
    await bot.idle();

    // Assess
    const request = requestTo('/external/personnel/list', since);
    expect(request?.query).toMatchObject({ event_id: '26855', search_query: 'marketing', level: 'director' });
    expect([request?.query.sourceType].flat().join(',')).toBe('exhibitor,social');
  });

  it('opens the events list’s Filter… as the search modal, with the type, quality and visitor filters kept', async () => {
    // Prepare
    await bot.command('search expo type:Conference quality:high visitors:yes');
    await bot.idle();

    // Act
    await bot.click(structuredClone(bot.last()), 'list.filter');

    // Assess
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.search');
    expect(modal?.warnings).toEqual([]);
    expect(prefilled(ALICE.userId)).toMatchObject({ keywords: 'expo', type: 'Conference', quality: 'high' });
    expect(JSON.stringify(modal?.view.blocks)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"With visitor data","emoji":true},"value":"yes"}',
    );
  });

  it('refuses every bad field of the search form at once, each on its field, asking nothing of the service', async () => {
    // Prepare
    await bot.command('search expo');
    await bot.idle();
    await bot.click(structuredClone(bot.last()), 'list.filter');
    const since = bot.sim.requests().length;

    // Act: two fields the command would refuse
    const inputs = asForm({ when: 'someday', country: 'x'.repeat(300) });
    const answer = await bot.slack.submitForm({ user: ALICE.userId, inputs });
    await bot.idle();

    // Assess
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ response_action: 'errors' });
    expect(bot.slack.modal(ALICE.userId)?.errors).toEqual({
      when: expect.stringContaining('is not a quarter or a month') as string,
      country: expect.stringContaining('longer than 100 characters') as string,
    });
    expect(bot.sim.requests()).toHaveLength(since);
  });

  it('refuses every bad filter of a Filter… form at once, each on its field', async () => {
    // Prepare
    await bot.command('people 26855');
    await bot.idle();
    await bot.click(structuredClone(bot.last()), 'list.filter');

    // Act
    const inputs = asForm({ exhibitor: 'Acme', department: 'x'.repeat(300) });
    const answer = await bot.slack.submitForm({ user: ALICE.userId, inputs });
    await bot.idle();

    // Assess
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ response_action: 'errors' });
    expect(Object.keys(bot.slack.modal(ALICE.userId)?.errors ?? {}).sort()).toEqual([
      'department',
      'exhibitor',
    ]);
  });

  it('refuses a filter the command would refuse, on its field, and asks nothing of the service', async () => {
    // Prepare
    await bot.command('people 26855');
    await bot.idle();
    await bot.click(structuredClone(bot.last()), 'list.filter');
    const since = bot.sim.requests().length;

    // Act
    const answer = await bot.slack.submitForm({ user: ALICE.userId, inputs: asForm({ exhibitor: 'Acme' }) });
    await bot.idle();

    // Assess
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ response_action: 'errors' });
    expect(bot.slack.modal(ALICE.userId)?.errors).toEqual({
      exhibitor: expect.stringContaining('is not an exhibitor id') as string,
    });
    expect(bot.sim.requests()).toHaveLength(since);
  });
});
