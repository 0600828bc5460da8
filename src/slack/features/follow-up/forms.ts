import type { OutreachOptions } from '../../../domain/follow-up.ts';
import { OutreachOptionsSchema } from '../../../eis/outreach-options.ts';
import { choicesOf, fieldOf, type FormResult, type ViewValues } from '../../kit/modal-forms.ts';

/** The Draft outreach modal: its channels, LinkedIn variants (only with LinkedIn) and purpose. */
export function readOutreachForm(values: ViewValues): FormResult<OutreachOptions> {
  const channels = choicesOf(values, 'channels');
  const linkedin = channels.includes('linkedin_message');
  const types = linkedin ? choicesOf(values, 'linkedin_types') : [];
  const purpose = fieldOf(values, 'purpose');
  if (linkedin && types.length === 0)
    return { ok: false, errors: { linkedin_types: 'Choose at least one kind of LinkedIn message.' } };
  // Slack requires a channel and caps the purpose's length; anything else is a form out of date.
  const parsed = OutreachOptionsSchema.safeParse({
    channels,
    ...(types.length > 0 ? { linkedinMessageTypes: types } : {}),
    ...(purpose ? { outreachPurpose: purpose } : {}),
  });
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: { channels: 'This form is out of date; open it again.' } };
}
