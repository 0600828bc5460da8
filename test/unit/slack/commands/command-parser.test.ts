import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS, parseCommand } from '../../../../src/slack/commands/index.ts';

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
    expect(parseCommand('digest on 8:30 Pacific/Auckland keywords:robotics country:Japan')).toEqual({
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

  it('lists each word once, as help text only, and refuses with that same spec', () => {
    const words = COMMAND_SPECS.map((spec) => spec.word);
    expect(new Set(words).size).toBe(words.length);
    expect(words.slice(0, 3)).toEqual(['help', 'search', 'exhibitors']);
    for (const spec of COMMAND_SPECS) {
      expect(
        Object.values(spec).every((value) => typeof value === 'string'),
        spec.word,
      ).toBe(true);
    }
    const unlock = COMMAND_SPECS.find((spec) => spec.word === 'unlock');
    expect(parseCommand('UNLOCK')).toEqual({ ok: false, problem: 'The event id is missing.', spec: unlock });
  });

  it('explains one command on help <command>', () => {
    expect(parseCommand('help Digest')).toEqual({ ok: true, command: { name: 'help', topic: 'digest' } });
    expect(parseCommand('help digets')).toMatchObject({
      ok: false,
      showHelp: true,
      suggestion: 'help digest',
    });
  });

  it('refuses credits, files and spend with words after them', () => {
    expect(parseCommand('credits please')).toMatchObject({ ok: false, spec: { word: 'credits' } });
  });
});

describe('parseCommand: spend', () => {
  it('reads today by default, a current period, a month or a quarter, and export', () => {
    expect(parseCommand('spend')).toEqual({ ok: true, command: { name: 'spend', period: 'today' } });
    expect(parseCommand('spend Month')).toEqual({ ok: true, command: { name: 'spend', period: 'month' } });
    expect(parseCommand('spend 2027-03')).toMatchObject({ ok: true, command: { period: '2027-03' } });
    expect(parseCommand('spend q2-2027 export')).toEqual({
      ok: true,
      command: { name: 'spend', period: 'q2-2027', export: true },
    });
  });

  it('reads `this month`, `this week` and `this quarter` as the current one', () => {
    for (const word of ['week', 'month', 'quarter'])
      expect(parseCommand(`spend this ${word}`)).toEqual({
        ok: true,
        command: { name: 'spend', period: word },
      });
  });

  it.each(['this year', 'yesterday', '2027-13', 'month 2027-03', 'this'])(
    'refuses %s, saying which periods it reads',
    (words) => {
      const result = parseCommand(`spend ${words}`);

      expect(result).toMatchObject({ ok: false, spec: { word: 'spend' } });
      if (result.ok) return;
      expect(result.problem).toContain(`\`${words}\` is not a period.`);
      expect(result.problem).toContain('`today` (the default), `week`, `month` or `quarter`');
      expect(result.problem).toContain('`2027-03`');
      expect(result.problem).toContain('`Q2-2027`');
    },
  );
});

describe('parseCommand: ids', () => {
  it.each(['abc', '-1', 'help', '26855!', '"'])('refuses %s as an event id, naming it', (id) => {
    const result = parseCommand(`fit ${id}`);

    expect(result).toMatchObject({ ok: false, spec: { word: 'fit' } });
    if (result.ok) return;
    expect(result.problem).toContain(`\`${id}\` is not an event id`);
    expect(result.problem).toContain('26855');
  });

  it('takes an event id that has a digit in it', () => {
    expect(parseCommand('show 8453')).toMatchObject({ ok: true, command: { eventId: '8453' } });
    expect(parseCommand('show evt_26855')).toMatchObject({ ok: true, command: { eventId: 'evt_26855' } });
  });

  it('refuses a second event id', () => {
    const result = parseCommand('unlock 26855 8453');

    expect(result).toMatchObject({ ok: false, spec: { word: 'unlock' } });
    if (!result.ok) expect(result.problem).toContain('`8453` is extra');
  });

  it.each(['abc', '-1', '1.5'])('refuses %s as a personnel id', (id) => {
    const result = parseCommand(`person-events ${id}`);

    expect(result).toMatchObject({ ok: false, spec: { word: 'person-events' } });
    if (!result.ok) expect(result.problem).toContain(`\`${id}\` is not a personnel id`);
  });

  it('refuses an id where a paid search wants a name, pointing to the free look-up', () => {
    const result = parseCommand('exhibitor 26855');

    expect(result).toMatchObject({ ok: false, spec: { word: 'exhibitor' } });
    if (!result.ok) expect(result.problem).toContain('/events exhibitors 26855');
  });
});

describe('parseCommand: unknown words', () => {
  it.each([
    ['fitt 26855', 'fit 26855'],
    ['unlcok 26855', 'unlock 26855'],
    ['peple 26855 marketing', 'people 26855 marketing'],
    ['Serach fintech', 'search fintech'],
    ['26855', 'show 26855'],
  ])('answers %s with a suggestion: %s', (text, suggestion) => {
    expect(parseCommand(text)).toMatchObject({ ok: false, showHelp: true, suggestion });
  });

  it('suggests nothing for a word far from every command', () => {
    const result = parseCommand('teleport 26855');

    expect(result).toMatchObject({
      ok: false,
      showHelp: true,
      problem: '`teleport` is not an /events command.',
    });
    expect(result).not.toHaveProperty('suggestion');
  });

  it('suggests the nearest digest action', () => {
    const result = parseCommand('digest stauts');

    expect(result).toMatchObject({ ok: false, spec: { word: 'digest' } });
    if (!result.ok) expect(result.problem).toContain('Did you mean `digest status`?');
  });
});

describe('parseCommand: filters', () => {
  it('runs a value to the next key, so multi-word values need no quotes', () => {
    expect(parseCommand('search fintech country:United States city:New York')).toEqual({
      ok: true,
      command: {
        name: 'search',
        filters: { keywords: 'fintech', country: 'United States', city: 'New York' },
      },
    });
  });

  it('reads words after a value as part of it: search words go first', () => {
    expect(parseCommand('search country:United States fintech')).toEqual({
      ok: true,
      command: { name: 'search', filters: { country: 'United States fintech' } },
    });
  });

  it('takes a value after a space, and keywords: next to leading search words', () => {
    expect(parseCommand('search fintech country: Germany keyword:payments')).toEqual({
      ok: true,
      command: { name: 'search', filters: { keywords: 'fintech payments', country: 'Germany' } },
    });
  });

  it('refuses words after a quoted value rather than guessing', () => {
    const result = parseCommand('search country:"United States" fintech');

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain('keywords:fintech');
  });

  it('refuses an unknown key, suggesting the nearest and listing the known ones', () => {
    const result = parseCommand('search contry:Germany');

    expect(result).toMatchObject({ ok: false, spec: { word: 'search' } });
    if (result.ok) return;
    expect(result.problem).toContain('`contry:` is not a filter');
    expect(result.problem).toContain('Did you mean `country:`?');
    for (const key of ['keywords:', 'country:', 'city:', 'from:', 'to:'])
      expect(result.problem).toContain(key);
  });

  it('refuses a key given twice and dates in the wrong order', () => {
    expect(parseCommand('search country:Germany country:France')).toMatchObject({ ok: false });
    expect(parseCommand('search from:2027-06-01 to:2027-01-01')).toMatchObject({ ok: false });
  });

  it('treats an address as a search word, not a key', () => {
    expect(parseCommand('search https://acme.example')).toMatchObject({
      ok: true,
      command: { filters: { keywords: 'https://acme.example' } },
    });
  });
});

describe('parseCommand: Slack formatting', () => {
  it('drops bold, italic, strike and code markers from names and search words', () => {
    expect(parseCommand('who *Jane Smith*')).toEqual({
      ok: true,
      command: { name: 'who', fullName: 'Jane Smith' },
    });
    expect(parseCommand('search _fintech_ ~expo~ country:`Germany`')).toEqual({
      ok: true,
      command: { name: 'search', filters: { keywords: 'fintech expo', country: 'Germany' } },
    });
    expect(parseCommand('company ```Acme Analytics```')).toMatchObject({
      ok: true,
      command: { companyName: 'Acme Analytics' },
    });
  });

  it('reads a link as its label, or its address when it has none', () => {
    expect(parseCommand('company <https://acme.example|Acme Analytics>')).toMatchObject({
      ok: true,
      command: { companyName: 'Acme Analytics' },
    });
    expect(parseCommand('exhibitor <mailto:sales@acme.example|sales@acme.example>')).toMatchObject({
      ok: true,
      command: { companyName: 'sales@acme.example' },
    });
    expect(parseCommand('similar <https://acme.example>')).toMatchObject({
      ok: true,
      command: { companyUrl: 'https://acme.example/' },
    });
  });

  it('undoes Slack escaping of &, < and >', () => {
    expect(parseCommand('search Data &amp; AI')).toMatchObject({
      ok: true,
      command: { filters: { keywords: 'Data & AI' } },
    });
  });

  it.each([
    'who <!channel>',
    'who <!here>',
    'who <@U123ABC>',
    'company <#C123|general>',
    'exhibitor <!subteam^S1|@sales>',
    'search <!here> expo',
    'people 26855 <@U1>',
  ])('refuses a mention or special token in %s, so no search is offered', (text) => {
    const result = parseCommand(text);

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain('Mentions');
  });
});

describe('parseCommand: digest on', () => {
  it('reads 12-hour times and an abbreviation, with a note on how the zone was read', () => {
    expect(parseCommand('digest on 8:30pm EST keywords:fintech')).toEqual({
      ok: true,
      command: {
        name: 'digest-on',
        time: '20:30',
        timeZone: 'America/New_York',
        note: 'EST read as America/New_York',
        filters: { keywords: 'fintech' },
      },
    });
  });

  it('reads "8 am", a zone in any case, an offset, and filters with spaces', () => {
    expect(parseCommand('digest on 8 am europe/berlin')).toMatchObject({
      ok: true,
      command: { time: '08:00', timeZone: 'Europe/Berlin' },
    });
    expect(parseCommand('digest on 12am UTC+2 country:United States')).toMatchObject({
      ok: true,
      command: { time: '00:00', timeZone: 'Etc/GMT-2', filters: { country: 'United States' } },
    });
  });

  it('takes no arguments at all: the defaults are chosen later', () => {
    expect(parseCommand('digest on')).toEqual({ ok: true, command: { name: 'digest-on', filters: {} } });
  });

  it.each([
    ['digest on 8.30', 'Did you mean `08:30`?'],
    ['digest on 25:00', '`25:00` is not a time of day'],
    ['digest on 8', 'Did you mean `08:00`?'],
    ['digest on 08:30 EST5', 'Did you mean `EST`?'],
    ['digest on 08:30 Mars/Base', '`Mars/Base` is not a time zone'],
    ['digest on 08:30 UTC+5:30', 'whole-hour'],
    ['digest on fintech', 'keywords:fintech'],
    ['digest on 08:30 Europe/Berlin fintech country:Germany', 'Filters are key:value'],
    ['digest on 08:30 09:00', 'one time of day'],
    ['digest on 08:30 UTC cuntry:Germany', 'Did you mean `country:`?'],
  ])('refuses %s, never reading a word as a search keyword', (text, expected) => {
    const result = parseCommand(text);

    expect(result).toMatchObject({ ok: false, spec: { word: 'digest' } });
    if (!result.ok) expect(result.problem).toContain(expected);
  });
});
