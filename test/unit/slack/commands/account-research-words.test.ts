import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../../src/slack/commands/index.ts';

describe('account research words', () => {
  it('reads digits after `account` as an exhibitor id, and anything else as a company name', () => {
    expect(parseCommand('account 4100')).toEqual({
      ok: true,
      command: { name: 'account', exhibitorId: '4100' },
    });
    expect(parseCommand('account "Acme Analytics"')).toEqual({
      ok: true,
      command: { name: 'account', companyName: 'Acme Analytics' },
    });
  });

  it('reads the contact search words as the company, or as the name when `company:` is given', () => {
    expect(parseCommand('contacts Acme Analytics title:VP Marketing')).toEqual({
      ok: true,
      command: { name: 'contacts', companyName: 'Acme Analytics', role: 'VP Marketing' },
    });
    expect(parseCommand('contacts Jane company:Acme role:CTO')).toEqual({
      ok: true,
      command: { name: 'contacts', companyName: 'Acme', role: 'CTO', personName: 'Jane' },
    });
  });

  it.each(['level:Director', 'department:Sales'])(
    'refuses %s, which the service has no contact filter for, naming the ones it has',
    (filter) => {
      const result = parseCommand(`contacts Acme ${filter}`);

      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problem).toContain(`no \`${filter.split(':')[0] ?? ''}:\` filter`);
      expect(result.problem).toContain('`company:`, `title:` and `name:`');
    },
  );

  it('needs a company for a contact search', () => {
    const result = parseCommand('contacts title:VP');

    expect(result).toMatchObject({
      ok: false,
      problem: expect.stringContaining('Give a company name') as unknown,
    });
  });

  it('takes a LinkedIn profile address, as Slack sends links, and refuses other addresses', () => {
    expect(parseCommand('linkedin <https://www.linkedin.com/in/jane-smith-100001>')).toEqual({
      ok: true,
      command: { name: 'linkedin', linkedinUrl: 'https://www.linkedin.com/in/jane-smith-100001' },
    });
    expect(parseCommand('linkedin linkedin.com/in/jane')).toMatchObject({ ok: true });
    expect(parseCommand('linkedin https://www.linkedin.com/company/acme')).toMatchObject({ ok: false });
    expect(parseCommand('linkedin https://example.com/in/jane')).toMatchObject({ ok: false });
  });

  it('reads `brief` with one event id', () => {
    expect(parseCommand('brief 26855')).toEqual({ ok: true, command: { name: 'brief', eventId: '26855' } });
    expect(parseCommand('brief expo')).toMatchObject({ ok: false });
  });
});
