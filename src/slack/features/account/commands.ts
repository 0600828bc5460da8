import type { CommandArgs, Parsed, AudienceDeclared } from '../../kit/command-types.ts';
import { listedCredits } from '../../kit/money-words.ts';
import { KEY_TOKEN, shown } from '../../kit/command-arguments.ts';

/** The account room's `/events` words (issue 14): research one company, or one person. */

type AccountCommand = { name: 'account'; exhibitorId: string } | { name: 'account'; companyName: string };
type ContactsCommand = { name: 'contacts'; companyName: string; role?: string; personName?: string };

/** Digits are an exhibitor id (free); anything else is a company name (a paid name search first). */
function parseAccount({ text, fail }: CommandArgs): Parsed<AccountCommand> {
  const value = text.replace(/"/g, '').trim();
  if (!value) return fail('Give an exhibitor id or a company name.');
  if (value.length > 200) return fail('The company name is longer than 200 characters.');
  if (/^\d{1,20}$/.test(value)) return { ok: true, command: { name: 'account', exhibitorId: value } };
  return { ok: true, command: { name: 'account', companyName: value } };
}

const CONTACT_KEYS = ['company', 'title', 'name'] as const;
type ContactKey = (typeof CONTACT_KEYS)[number];
const CONTACT_ALIASES: Record<string, ContactKey> = { role: 'title', person: 'name' };
/** Filters the issue asks for that the service's contact search does not have. */
const UNSUPPORTED_CONTACT_KEYS = ['level', 'department', 'seniority'];

/** `Acme title:VP` or `Jane company:Acme title:VP`: the contact search's three fields. */
function parseContacts({ words, fail }: CommandArgs): Parsed<ContactsCommand> {
  const values: Partial<Record<ContactKey, string>> = {};
  const leading: string[] = [];
  let index = 0;
  while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) leading.push(words[index++] ?? '');
  while (index < words.length) {
    const [, rawKey = '', first = ''] = KEY_TOKEN.exec(words[index++] ?? '') ?? [];
    const valueWords = [first];
    while (index < words.length && !KEY_TOKEN.test(words[index] ?? '')) valueWords.push(words[index++] ?? '');
    const name = rawKey.toLowerCase();
    if (UNSUPPORTED_CONTACT_KEYS.includes(name))
      return fail(
        `The service's contact search has no \`${name}:\` filter (only \`company:\`, \`title:\` and \`name:\`); ` +
          'for level or department use `/events people <event_id>` and Filter….',
      );
    const key = CONTACT_KEYS.find((known) => known === (CONTACT_ALIASES[name] ?? name));
    if (!key)
      return fail(`${shown(`${rawKey}:`)} is not a filter. Filters: \`company:\`, \`title:\`, \`name:\`.`);
    const value = valueWords.join(' ').replace(/"/g, '').trim();
    if (!value) return fail(`\`${key}:\` needs a value.`);
    if (value.length > 200) return fail(`\`${key}:\` is longer than 200 characters.`);
    if (values[key]) return fail(`\`${key}:\` is given twice.`);
    values[key] = value;
  }
  const query = leading.join(' ').replace(/"/g, '').trim();
  if (query.length > 200) return fail('The search words are longer than 200 characters.');
  if (query && values.company && values.name)
    return fail(`${shown(query)}: the company and the name are both given.`);
  const companyName = values.company ?? query;
  const personName = values.company ? (values.name ?? (query || undefined)) : values.name;
  if (!companyName) return fail('Give a company name: the service searches contacts within one company.');
  return {
    ok: true,
    command: {
      name: 'contacts',
      companyName,
      ...(values.title ? { role: values.title } : {}),
      ...(personName ? { personName } : {}),
    },
  };
}

/** A public LinkedIn profile address (`linkedin.com/in/…`), with or without `https://`. */
function parseLinkedin({ words, fail }: CommandArgs): Parsed<{ name: 'linkedin'; linkedinUrl: string }> {
  const [raw = ''] = words;
  if (!raw) return fail('Give a LinkedIn profile address, like `https://www.linkedin.com/in/jane-smith`.');
  if (words.length > 1)
    return fail(`\`linkedin\` takes one address; ${shown(words.slice(1).join(' '))} is extra.`);
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return fail(`${shown(raw)} is not an address.`);
  }
  if (!/(^|\.)linkedin\.com$/i.test(url.hostname) || !/^\/in\/[^/]+/i.test(url.pathname))
    return fail(`${shown(raw)} is not a LinkedIn profile address (\`linkedin.com/in/…\`).`);
  if (url.toString().length > 500) return fail('The address is longer than 500 characters.');
  return { ok: true, command: { name: 'linkedin', linkedinUrl: url.toString() } };
}

export const ACCOUNT_COMMANDS = {
  account: {
    usage: 'account <exhibitor id | company name>',
    example: 'account 4100',
    summary: `An exhibitor profile and the events it exhibits at, upcoming first (free by id; by name ${listedCredits('exhibitor-search')} if anything matches)`,
    details:
      'An exhibitor id (digits) is free. A company name is looked up first with the company-name search, ' +
      `which costs ${listedCredits('exhibitor-search')} credits if anything matches (a confirmation card asks first); its results give the ids.`,
    parse: parseAccount,
    audience: 'anyone',
    // A name has no free look-up: the company-name search (50 credits if anything matches) finds the ids.
    charge: (command: AccountCommand) =>
      'companyName' in command
        ? { kind: 'exhibitor-search' as const, companyName: command.companyName }
        : undefined,
  },
  contacts: {
    usage: 'contacts <company or name> [company:X] [title:X] [name:X]',
    example: 'contacts Acme Analytics title:VP',
    summary: 'People at a company, with Emails / Phones unlock buttons',
    details:
      'The service searches contacts within one company: the words are the company, or, with `company:`, ' +
      "the person's name. Filters: `company:`, `title:` (role or title) and `name:`. The service has no " +
      'level or department filter for contacts; for those use `/events people <event_id>` and Filter….',
    parse: parseContacts,
    audience: 'anyone',
  },
  linkedin: {
    usage: 'linkedin <LinkedIn profile url>',
    example: 'linkedin https://www.linkedin.com/in/jane-smith-100001',
    summary: "A person's events, from their LinkedIn profile",
    parse: parseLinkedin,
    audience: 'anyone',
  },
} satisfies AudienceDeclared;
