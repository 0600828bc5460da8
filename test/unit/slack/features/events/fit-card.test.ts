import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { blockKitViolations } from '../../../../../local/fake-slack/block-kit-check.ts';
import { fitCard } from '../../../../../src/slack/features/events/fit-card.ts';
import type { FitScoreResult } from '../../../../../src/slack/views/types.ts';
import { buttonsOf, textsOf } from '../../../../support/views.ts';

const shown = (blocks: KnownBlock[]) => textsOf(blocks).join('\n');

function fitResult(overrides: Partial<FitScoreResult> = {}): FitScoreResult {
  return {
    event: {
      eventId: '26855',
      name: 'Fintech Expo',
      url: 'https://fintech.example/expo',
      dateStart: '2027-03-12',
      dateEnd: '2027-03-14',
      venue: 'Messe Berlin',
      city: 'Berlin',
      region: null,
      country: 'Germany',
      exhibitorCount: 1420,
    },
    score: 7.4,
    recommendation: 'recommended',
    breakdown: { profile_match: 8.12, matched_exhibitor_density: 6, event_scale: 7.45 },
    ...overrides,
  };
}

describe('fitCard', () => {
  it('shows the score out of ten, a bar and "Recommended" for 7.4', () => {
    // Prepare
    const fit = fitResult();

    // Act
    const message = fitCard(fit);

    // Assess
    const text = shown(message.blocks);
    expect(text).toContain('7.4 / 10');
    expect(text).toContain('■■■■■■■□□□');
    expect(text).toContain('Recommended');
    expect(message.text).toContain('7.4 / 10');
  });

  it.each([
    [4.0, 'Consider'],
    [3.99, 'Not recommended'],
    [7, 'Recommended'],
  ])('falls back to the score bands when no recommendation is given: %s is %s', (score, band) => {
    // Act
    const message = fitCard(fitResult({ score, recommendation: null }));

    // Assess
    expect(message.text).toContain(band);
    if (band === 'Consider') expect(message.text).not.toContain('Recommended');
  });

  it('follows the service recommendation over the score band', () => {
    // Act
    const message = fitCard(fitResult({ score: 6.99, recommendation: 'consider' }));

    // Assess
    expect(shown(message.blocks)).toContain('*Consider*');
  });

  it('says what each breakdown factor means for this show, by its value out of ten', () => {
    // Act
    const text = shown(fitCard(fitResult()).blocks);

    // Assess: 8.1 and 7.5 are in the top band (7–10), 6.0 in the middle one (4–<7).
    expect(text).toContain('*Profile match* 8.1/10\nThe profile in your account fits this show well.');
    expect(text).toContain(
      '*Matched exhibitor density* 6.0/10\nSome of its exhibitors match that profile (exhibitors, not verified buyers).',
    );
    expect(text).toContain('*Event scale* 7.5/10\nA large show by exhibitor count (1,420 exhibitors).');
  });

  it('words a low factor as low, and a factor the service did not give as not given', () => {
    // Act
    const text = shown(
      fitCard(
        fitResult({ breakdown: { profile_match: 2.5, matched_exhibitor_density: null, event_scale: 3.9 } }),
      ).blocks,
    );

    // Assess
    expect(text).toContain('*Profile match* 2.5/10\nThe profile in your account fits this show poorly.');
    expect(text).toContain('*Matched exhibitor density*\n– (not given by the service)');
    expect(text).toContain('*Event scale* 3.9/10\nA small show by exhibitor count (1,420 exhibitors).');
  });

  it('names the event in the header, with dates, place, exhibitor count and website', () => {
    // Act
    const message = fitCard(fitResult());

    // Assess
    expect(message.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Fintech Expo' } });
    const text = shown(message.blocks);
    expect(text).toContain('12–14 Mar 2027');
    expect(text).toContain('Messe Berlin, Berlin, Germany');
    expect(text).toContain('1,420');
    expect(text).toContain('<https://fintech.example/expo|Event website>');
  });

  it.each([
    [{ dateStart: '2027-03-12', dateEnd: null }, '12 Mar 2027'],
    [{ dateStart: '2027-03-12', dateEnd: '2027-03-12' }, '12 Mar 2027'],
    [{ dateStart: '2027-02-28', dateEnd: '2027-03-02' }, '28 Feb – 2 Mar 2027'],
    [{ dateStart: null, dateEnd: null }, 'Dates not announced'],
  ])('writes the dates %j as "%s"', (dates, expected) => {
    // Act
    const message = fitCard(fitResult({ event: { ...fitResult().event, ...dates } }));

    // Assess
    expect(shown(message.blocks)).toContain(`*When*\n${expected}`);
  });

  it('names the event from its detail when the fit result has no name', () => {
    // Act
    const named = fitCard(fitResult({ event: { ...fitResult().event, name: null } }), {
      name: 'Expo Detail',
    });
    const unnamed = fitCard(fitResult({ event: { ...fitResult().event, name: null } }));

    // Assess
    expect(named.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Expo Detail' } });
    expect(unnamed.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Event 26855' } });
  });

  it('says whether visitor data exists when the event detail tells', () => {
    // Act
    const withVisitors = shown(fitCard(fitResult(), { hasVisitors: true }).blocks);
    const unknown = shown(fitCard(fitResult()).blocks);

    // Assess
    expect(withVisitors).toContain('*Visitor data*\nAvailable');
    expect(unknown).not.toContain('Visitor data');
  });

  it('offers unlock, exhibitors, people and recommendations for the event', () => {
    // Act
    const buttons = buttonsOf(fitCard(fitResult()).blocks);

    // Assess
    expect(buttons.map((element) => [element.action_id, element.text.text])).toEqual([
      ['fit.unlock', 'Unlock event'],
      ['fit.exhibitors', 'Exhibitors'],
      ['fit.people', 'People'],
      ['fit.recommend', 'Recommended exhibitors'],
    ]);
    for (const element of buttons) expect(JSON.parse(element.value ?? '')).toEqual({ eventId: '26855' });
  });

  it('escapes a channel ping in the event name and stays within Block Kit limits', () => {
    // Prepare
    const fit = fitResult({ event: { ...fitResult().event, name: 'Expo <!channel> & friends' } });

    // Act
    const message = fitCard(fit);

    // Assess
    expect(message.text).toContain('&lt;!channel&gt; &amp; friends');
    expect(message.text).not.toContain('<!channel>');
    expect(blockKitViolations(message.text, message.blocks)).toEqual([]);
  });
});
