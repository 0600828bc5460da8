import { describe, expect, it } from 'vitest';
import { readOutreachForm } from '../../../../../src/slack/features/follow-up/forms.ts';
import type { ViewValues } from '../../../../../src/slack/kit/modal-forms.ts';

const checked = (...values: string[]) => ({
  value: { type: 'checkboxes', selected_options: values.map((value) => ({ value })) },
});

describe('readOutreachForm: the Draft outreach modal read back', () => {
  it('sends the LinkedIn variants only with the LinkedIn channel, and the purpose trimmed', () => {
    const values: ViewValues = {
      channels: checked('email'),
      linkedin_types: checked('inmail'),
      purpose: { value: { type: 'plain_text_input', value: '  Book a demo ' } },
    };

    expect(readOutreachForm(values)).toEqual({
      ok: true,
      value: { channels: ['email'], outreachPurpose: 'Book a demo' },
    });
  });

  it('asks for a kind of LinkedIn message when LinkedIn is chosen without one', () => {
    const values: ViewValues = { channels: checked('linkedin_message'), linkedin_types: checked() };

    expect(readOutreachForm(values)).toEqual({
      ok: false,
      errors: { linkedin_types: 'Choose at least one kind of LinkedIn message.' },
    });
  });

  it('refuses a channel the service does not offer, as an out-of-date form', () => {
    expect(readOutreachForm({ channels: checked('sms') })).toEqual({
      ok: false,
      errors: { channels: 'This form is out of date; open it again.' },
    });
  });
});
