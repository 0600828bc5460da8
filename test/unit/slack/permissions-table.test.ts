import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Audience, mayUse, type Standing } from '../../../src/domain/audience.ts';
import { audienceOf, COMMAND_AUDIENCES, type Command, commandLabel } from '../../../src/slack/commands/index.ts';
import { refusalText } from '../../../src/slack/kit/permissions.ts';
import { BUTTON_AUDIENCES, type ButtonAudience, RUNS } from '../../../src/slack/views/action-ids.ts';
import { FORM_AUDIENCES } from '../../../src/slack/views/form-ids.ts';

/** The five kinds of user the issue names, as the one check sees them. */
const PEOPLE: readonly [string, Standing][] = [
  ['Member', { kind: 'member', approver: false, admin: false }],
  ['Guest', { kind: 'guest' }],
  ['Outside user', { kind: 'outsider' }],
  ['Approver', { kind: 'member', approver: true, admin: false }],
  ['Admin', { kind: 'member', approver: false, admin: true }],
];

/** What one of them may do with something declared for `audience`, as the table says it. */
function cell(audience: ButtonAudience, standing: Standing): string {
  if (audience === RUNS) return 'as what it runs';
  if (!mayUse(audience, standing)) return '—';
  // Past the check, a confirmation's own rules let the person who asked and the approvers decide.
  if (audience === 'askers' && standing.kind === 'member' && !standing.approver) return 'if they asked';
  // An outcome's own rule: the person who logged it, or an admin.
  if (audience === 'authors' && standing.kind === 'member' && !standing.admin) return 'if they logged it';
  return 'yes';
}

const row = (what: string, audience: ButtonAudience, note = '') =>
  `| ${what} | ${audience}${note} | ${PEOPLE.map(([, standing]) => cell(audience, standing)).join(' | ')} |`;

const header = `| What | Declared for | ${PEOPLE.map(([name]) => name).join(' | ')} |\n|${' --- |'.repeat(PEOPLE.length + 2)}`;

/** The table docs/using.md prints, generated from every declaration. */
function permissionsTable(): string {
  const commands = COMMAND_AUDIENCES.map(({ word, command, audience, spends }) =>
    row(
      `\`/events ${command ? commandLabel({ name: command } as Pick<Command, 'name'>) : word}\``,
      audience,
      spends && audience === 'anyone' ? ' (members when it spends credits)' : '',
    ),
  );
  const buttons = BUTTON_AUDIENCES.map(({ actionId, audience }) => row(`button \`${actionId}\``, audience));
  const forms = FORM_AUDIENCES.map(({ callbackId, audience }) => row(`form \`${callbackId}\``, audience));
  return [header, ...commands, ...buttons, ...forms].join('\n');
}

describe('who may use each command word, button and form', () => {
  it('is printed in docs/using.md, exactly as declared', () => {
    const docs = readFileSync(new URL('../../../docs/using.md', import.meta.url), 'utf8');
    expect(docs, `docs/using.md should hold this table:\n\n${permissionsTable()}\n`).toContain(permissionsTable());
  });

  it('gives an outside user only the public data: never the ledger, budgets, costs, the watch, or a change', () => {
    const forOutsiders = COMMAND_AUDIENCES.filter(({ audience }) => mayUse(audience, { kind: 'outsider' }));
    const words = forOutsiders.map(({ word, command }) => command ?? word);

    expect(words).toEqual(
      expect.arrayContaining(['show', 'fit', 'search', 'exhibitors', 'people', 'compare', 'account']),
    );
    expect(words.filter((word) => /^(spend|credits|plan|watch|digest)/.test(word))).toEqual([]);
  });

  it('holds budgets for the plan and the watch to one rule', () => {
    const budget = (name: string) => COMMAND_AUDIENCES.find(({ command }) => command === name)?.audience;

    expect(budget('plan-budget')).toBe('approvers');
    expect(budget('watch-budget')).toBe(budget('plan-budget'));
  });

  it('asks for a member at least for anything that spends credits, whatever its word declares', () => {
    const byName: Command = { name: 'account', companyName: 'Acme' };
    const byId: Command = { name: 'account', exhibitorId: '4100' };

    expect(audienceOf(byId)).toBe('anyone');
    expect(audienceOf(byName)).toBe('members');
  });

  it('says who may, in every refusal', () => {
    const audiences: Audience[] = ['guests', 'members', 'approvers'];
    for (const audience of audiences)
      expect(refusalText(audience, { kind: 'outsider' }, '`/events plan`')).toMatch(
        /^Only .+ may use `\/events plan`\. You are a guest from another organisation here\. Nothing was done\.$/,
      );
  });
});
