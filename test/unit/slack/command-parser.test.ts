import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS, parseCommand } from '../../../src/slack/command-parser.ts';

describe('parseCommand', () => {
  it('reads a fit command with its event id', () => {
    expect(parseCommand('fit 26855')).toEqual({ ok: true, command: { name: 'fit', eventId: '26855' } });
  });

  it('treats empty text as a request for help', () => {
    expect(parseCommand('   ')).toEqual({ ok: true, command: { name: 'help' } });
  });

  it('reads search words and filters, including quoted values', () => {
    const result = parseCommand(
      'search fintech payments country:"United States" from:2027-01-01 to:2027-06-30',
    );

    expect(result).toEqual({
      ok: true,
      command: {
        name: 'search',
        filters: {
          keywords: 'fintech payments',
          country: 'United States',
          from: '2027-01-01',
          to: '2027-06-30',
        },
      },
    });
  });

  it('names an impossible date and shows the usage', () => {
    const result = parseCommand('search expo from:2027-02-30');

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain('from:2027-02-30');
    expect(result.spec?.word).toBe('search');
  });

  it('refuses a missing event id with the command usage', () => {
    const result = parseCommand('unlock');

    expect(result).toMatchObject({
      ok: false,
      problem: 'The event id is missing.',
      spec: { word: 'unlock' },
    });
  });

  it('refuses personnel ids that are not numeric', () => {
    expect(parseCommand('emails 101 abc')).toMatchObject({ ok: false, spec: { word: 'emails' } });
  });

  it('deduplicates personnel ids and accepts commas', () => {
    expect(parseCommand('phones 101,102 101')).toEqual({
      ok: true,
      command: { name: 'phones', personnelIds: ['101', '102'] },
    });
  });

  it('reads a Slack-formatted link as a company website', () => {
    expect(parseCommand('similar <https://acme.example|acme.example>')).toEqual({
      ok: true,
      command: { name: 'similar', companyUrl: 'https://acme.example/' },
    });
  });

  it('reads free text as a target audience', () => {
    expect(parseCommand('similar payment teams in retail')).toEqual({
      ok: true,
      command: { name: 'similar', targetAudience: 'payment teams in retail' },
    });
  });

  it('reads a digest subscription with time, zone and filters', () => {
    expect(parseCommand('digest on 8:30 Pacific/Auckland robotics country:Japan')).toEqual({
      ok: true,
      command: {
        name: 'digest-on',
        time: '08:30',
        timeZone: 'Pacific/Auckland',
        filters: { keywords: 'robotics', country: 'Japan' },
      },
    });
  });

  it('refuses an unknown time zone', () => {
    expect(parseCommand('digest on 09:00 Mars/Olympus')).toMatchObject({
      ok: false,
      spec: { word: 'digest' },
    });
  });

  it('answers an unknown word with help', () => {
    expect(parseCommand('<!channel> hello')).toMatchObject({ ok: false, showHelp: true });
  });

  it('has a usage and an example for every command word', () => {
    for (const spec of COMMAND_SPECS) {
      expect(spec.usage.startsWith(spec.word)).toBe(true);
      const result = parseCommand(spec.example);
      expect(result.ok, spec.example).toBe(true);
    }
  });
});
