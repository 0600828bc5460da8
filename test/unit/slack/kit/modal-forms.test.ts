import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../../src/slack/commands/index.ts';
import { companyHint, readResearchForm } from '../../../../src/slack/features/account/forms.ts';
import { researchModal } from '../../../../src/slack/features/account/research-views.ts';
import { readDigestForm } from '../../../../src/slack/features/digests/forms.ts';
import { digestModal } from '../../../../src/slack/features/digests/settings-views.ts';
import { listFilterModal, searchModal } from '../../../../src/slack/features/lists/filter-views.ts';
import { readFilterForm, readSearchForm } from '../../../../src/slack/features/lists/forms.ts';
import type { ViewValues } from '../../../../src/slack/kit/modal-forms.ts';
import { viewViolations } from '../../../../local/fake-slack/block-kit-check.ts';

const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const date = (value: string) => ({ value: { type: 'datepicker', selected_date: value } });
const choice = (value: string) => ({ value: { type: 'static_select', selected_option: { value } } });
const channel = (id: string) => ({ value: { type: 'conversations_select', selected_conversation: id } });
const time = (value: string) => ({ value: { type: 'timepicker', selected_time: value } });

describe('readSearchForm', () => {
  it('turns every filter into the search command the worker runs', () => {
    // Prepare
    const values: ViewValues = {
      keywords: text('fintech  payments'),
      country: text('United States'),
      city: text('Las Vegas'),
      from: date('2027-01-01'),
      to: date('2027-06-30'),
      type: text('Trade Show, Conference'),
      quality: text('high'),
      visitors: choice('yes'),
      channel: channel('C0GENERAL'),
    };

    // Act
    const form = readSearchForm(values);

    // Assess
    expect(form.ok).toBe(true);
    if (!form.ok) return;
    expect(form.value.channelId).toBe('C0GENERAL');
    const parsed = parseCommand(form.value.text);
    expect(parsed).toEqual({
      ok: true,
      command: {
        name: 'search',
        filters: {
          keywords: 'fintech payments',
          country: 'United States',
          city: 'Las Vegas',
          from: '2027-01-01',
          to: '2027-06-30',
          type: 'Trade Show, Conference',
          quality: 'high',
          visitors: 'yes',
        },
      },
    });
  });

  it('keeps a value that looks like a filter inside its own field', () => {
    const form = readSearchForm({ keywords: text('ai city:Paris "x"'), channel: channel('C0GENERAL') });

    expect(form.ok && parseCommand(form.value.text)).toMatchObject({
      ok: true,
      command: { filters: { keywords: "ai city:Paris 'x'" } },
    });
  });

  it('refuses a date range that ends before it starts, on the end date', () => {
    const form = readSearchForm({
      from: date('2027-03-01'),
      to: date('2027-01-01'),
      channel: channel('C0GENERAL'),
    });

    expect(form).toEqual({ ok: false, errors: { to: 'The end date is before the start date.' } });
  });

  it('asks for something to search for, and for a channel', () => {
    expect(readSearchForm({ channel: channel('C0GENERAL') })).toEqual({
      ok: false,
      errors: { keywords: 'Give some keywords or a filter.' },
    });
    expect(readSearchForm({ keywords: text('expo') })).toMatchObject({
      ok: false,
      errors: { channel: expect.any(String) as string },
    });
  });

  it('shows the parser’s problem on the field it names', () => {
    const form = readSearchForm({ country: text('x'.repeat(150)), channel: channel('C0GENERAL') });

    expect(form).toMatchObject({ ok: false, errors: { country: expect.stringContaining('100') as string } });
  });
});

describe('readResearchForm', () => {
  it('looks up companies like a website, for free', () => {
    expect(
      readResearchForm({ company: text('https://acme.example'), lookup: choice('similar') }, false),
    ).toEqual({
      ok: true,
      value: { text: 'similar https://acme.example' },
    });
  });

  it('finds exhibitor records by name, and refuses a website for them', () => {
    expect(readResearchForm({ company: text('Acme Analytics'), lookup: choice('exhibitor') }, false)).toEqual(
      {
        ok: true,
        value: { text: 'exhibitor Acme Analytics' },
      },
    );
    expect(
      readResearchForm({ company: text('acme.example'), lookup: choice('exhibitor') }, false),
    ).toMatchObject({
      ok: false,
      errors: { company: expect.stringContaining('name') as string },
    });
  });

  it('needs a company, and a channel when answered privately', () => {
    expect(readResearchForm({ lookup: choice('similar') }, true)).toMatchObject({
      ok: false,
      errors: { company: expect.any(String) as string, channel: expect.any(String) as string },
    });
    expect(
      readResearchForm(
        { company: text('Acme'), lookup: choice('similar'), channel: channel('C0OTHER') },
        true,
      ),
    ).toEqual({ ok: true, value: { text: 'similar Acme', channelId: 'C0OTHER' } });
  });
});

describe('the digest modal opened on a saved digest', () => {
  /** What a field of the modal shows when it opens. */
  const initial = (view: ReturnType<typeof digestModal>, field: string) => {
    const block = view.blocks.find((b) => 'block_id' in b && b.block_id === field);
    const element = block && 'element' in block ? (block.element as unknown as Record<string, unknown>) : {};
    return (element.initial_value ?? element.initial_date) as string | undefined;
  };
  const saved = (from: string, to: string) =>
    digestModal('C0GENERAL', { time: '08:30', timeZone: 'UTC', filters: { from, to } });

  it('shows a quarter or a month saved with `when:` as that word, and saving it keeps it', () => {
    const quarter = saved('2027-04-01', '2027-06-30');
    const month = saved('2027-03-01', '2027-03-31');

    expect([initial(quarter, 'when'), initial(quarter, 'from'), initial(quarter, 'to')]).toEqual([
      'Q2-2027',
      undefined,
      undefined,
    ]);
    expect(initial(month, 'when')).toBe('2027-03');
    expect(
      readDigestForm({
        time: time('08:30'),
        zone: choice('UTC'),
        when: text(initial(quarter, 'when') ?? ''),
      }),
    ).toEqual({ ok: true, value: 'digest on 08:30 UTC when:"Q2-2027"' });
  });

  it('shows any other range as its dates', () => {
    const range = saved('2027-04-02', '2027-06-30');

    expect([initial(range, 'when'), initial(range, 'from'), initial(range, 'to')]).toEqual([
      undefined,
      '2027-04-02',
      '2027-06-30',
    ]);
  });
});

describe('readDigestForm', () => {
  it('is the digest on command with time, zone and filters', () => {
    const form = readDigestForm({
      time: time('08:30'),
      zone: choice('Europe/Berlin'),
      country: text('Germany'),
    });

    expect(form).toEqual({ ok: true, value: 'digest on 08:30 Europe/Berlin country:"Germany"' });
    expect(form.ok && parseCommand(form.value)).toMatchObject({
      ok: true,
      command: {
        name: 'digest-on',
        time: '08:30',
        timeZone: 'Europe/Berlin',
        filters: { country: 'Germany' },
      },
    });
  });

  it('leaves the zone to Slack’s when the user keeps it, and refuses zones not offered', () => {
    expect(readDigestForm({ time: time('07:00'), zone: choice('slack') })).toEqual({
      ok: true,
      value: 'digest on 07:00',
    });
    expect(readDigestForm({ time: time('07:00'), zone: choice('Mars/Olympus') })).toMatchObject({
      ok: false,
      errors: { zone: expect.any(String) as string },
    });
  });

  it('takes a zone the list lacks (a channel’s own), never words that would add to the command', () => {
    expect(readDigestForm({ time: time('07:00'), zone: choice('Asia/Kathmandu') })).toEqual({
      ok: true,
      value: 'digest on 07:00 Asia/Kathmandu',
    });
    expect(readDigestForm({ time: time('07:00'), zone: choice('UTC keywords:x') })).toEqual({
      ok: false,
      errors: { zone: 'Pick a time zone from the list.' },
    });
  });

  it('refuses a reversed date range', () => {
    expect(
      readDigestForm({ time: time('07:00'), from: date('2027-02-01'), to: date('2027-01-01') }),
    ).toMatchObject({
      ok: false,
      errors: { to: expect.any(String) as string },
    });
  });
});

describe('readFilterForm', () => {
  it('replaces the list’s filters, keeping its event', () => {
    const metadata = {
      list: 'exhibitors' as const,
      query: { eventId: '26855', keyword: 'old', country: 'France' },
      channelId: 'C0GENERAL',
      inPlace: true,
    };

    expect(
      readFilterForm({ country: text('Germany'), industry: text('Fintech, Software') }, metadata),
    ).toEqual({
      ok: true,
      value: { eventId: '26855', country: 'Germany', industry: 'Fintech, Software' },
    });
  });

  it('refuses an over-long filter on its field', () => {
    const metadata = {
      list: 'people' as const,
      query: { eventId: '26855' },
      channelId: 'C0GENERAL',
      inPlace: false,
    };

    expect(readFilterForm({ department: text('d'.repeat(101)) }, metadata)).toMatchObject({
      ok: false,
      errors: { department: expect.any(String) as string },
    });
  });
});

describe('companyHint', () => {
  it('prefers the first link, else the first line without markup', () => {
    expect(companyHint('See <https://acme.example|Acme> and <https://globex.example>')).toBe(
      'https://acme.example',
    );
    expect(companyHint('*Acme Analytics* <@U123> is exhibiting\nsecond line')).toBe(
      'Acme Analytics is exhibiting',
    );
    expect(companyHint('')).toBe('');
  });
});

describe('the modals', () => {
  it('are within Slack’s limits', () => {
    const views = [
      searchModal(),
      searchModal({ keywords: 'fintech', from: '2027-01-01', channelId: 'C0GENERAL' }),
      researchModal('https://acme.example', { channelId: 'C0GENERAL', threadTs: '1.2' }),
      researchModal('', { privately: true }),
      digestModal('C0GENERAL'),
      listFilterModal({
        list: 'people',
        query: { eventId: '1', level: 'Director' },
        channelId: 'C0GENERAL',
        inPlace: true,
      }),
    ];
    for (const view of views) {
      expect(viewViolations('modal', view as unknown as Record<string, unknown>)).toEqual([]);
    }
  });
});

describe('/events search filters for the events list', () => {
  it('reads type, quality and visitors', () => {
    expect(parseCommand('search expo type:Trade Show,Conference quality:high visitors:no')).toEqual({
      ok: true,
      command: {
        name: 'search',
        filters: { keywords: 'expo', type: 'Trade Show,Conference', quality: 'high', visitors: 'no' },
      },
    });
  });

  it('refuses a visitors value that is not yes or no, and keeps the digest to its own filters', () => {
    expect(parseCommand('search expo visitors:maybe')).toMatchObject({ ok: false });
    expect(parseCommand('digest on 08:00 UTC type:Conference')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('is not a filter') as string,
    });
  });
});
