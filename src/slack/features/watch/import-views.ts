import type { ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import { WATCH_LIMITS } from '../../../domain/ports/watch.ts';
import { IMPORT_BOX_CHARS, IMPORT_BOXES } from '../../kit/job-values.ts';
import { input, plainText, section } from '../../views/blocks.ts';
import { FIELD_ACTION, modal } from '../../views/modal-inputs.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';

/** The `/events watch import` modal: a pure builder; `forms.ts` reads its boxes back. */

export const WATCH_IMPORT_MODAL = FORM_IDS.watchImport;

/** Block id of box `n` (1-based). */
export const importBox = (n: number) => `accounts-${n}`;

const limit = WATCH_LIMITS.accountsPerChannel.toLocaleString('en-US');

export function watchImportModal(channelId: string): ModalView {
  const boxes = Array.from({ length: IMPORT_BOXES }, (_, index) =>
    input(
      importBox(index + 1),
      index === 0 ? 'Accounts' : `More accounts (box ${index + 1} of ${IMPORT_BOXES})`,
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        multiline: true,
        max_length: IMPORT_BOX_CHARS,
        ...(index === 0 ? { placeholder: plainText('Acme Robotics\nglobex.com\ncompetitor:Initech') } : {}),
      },
      index === 0
        ? {
            optional: false,
            hint: 'A box holds 3,000 characters (about 150 names): when one is full, go on in the next.',
          }
        : {},
    ),
  );
  return modal(
    WATCH_IMPORT_MODAL,
    'Import watched accounts',
    'Import',
    [
      section(
        mk`Paste up to ${escapeMrkdwn(limit)} company names or domains for <#${escapeMrkdwn(channelId)}> to watch: one per line or comma-separated; \`competitor:\` before one marks a competitor. They are looked up as soon as they are imported, and the shows they are on now will not alert; from then on, a new show is posted here.`,
      ),
      ...boxes,
    ],
    { channelId },
  );
}
