import type { KnownBlock, ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import { context, input, plainText } from '../../views/blocks.ts';
import { truncate } from '../../views/mrkdwn.ts';
import { channelInput, FIELD_ACTION, modal, option } from '../../views/modal-inputs.ts';

/** "Research a company": a pure builder; `forms.ts` reads its submission back. */

export const RESEARCH_MODAL = FORM_IDS.research;

/** Where research answers go: a message's thread (message shortcut), or privately (App Home). */
export type ResearchTarget = { channelId: string; threadTs: string } | { privately: true };

export const RESEARCH_LOOKUPS = {
  similar: 'Exhibitors like it (free)',
  exhibitor: 'Its exhibitor records (50 credits if found, confirmed first)',
} as const;
export type ResearchLookup = keyof typeof RESEARCH_LOOKUPS;

export function researchModal(company: string, target: ResearchTarget): ModalView {
  const lookups = Object.entries(RESEARCH_LOOKUPS).map(([value, text]) => option(text, value));
  const blocks: KnownBlock[] = [
    input(
      'company',
      'Company name or website',
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        max_length: 200,
        placeholder: plainText('Acme Analytics or https://acme.example'),
        ...(company ? { initial_value: truncate(company, 200) } : {}),
      },
      { optional: false },
    ),
    input(
      'lookup',
      'Look up',
      {
        type: 'radio_buttons',
        action_id: FIELD_ACTION,
        options: lookups,
        ...(lookups[0] ? { initial_option: lookups[0] } : {}),
      },
      { optional: false },
    ),
  ];
  if ('privately' in target) blocks.push(channelInput());
  else blocks.push(context('The answer is posted in the message’s thread, for everyone there.'));
  return modal(RESEARCH_MODAL, 'Research a company', 'Look up', blocks, target);
}
