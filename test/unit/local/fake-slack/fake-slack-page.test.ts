import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../../local/fake-slack/fake-slack.ts';
import { triggerId } from '../../../../local/fake-slack/payloads.ts';

// What the local Slack page makes the fake send, checked against a stand-in app that records each
// delivery and answers with an empty 200.

type Payload = Record<string, unknown>;

/** A delivery as the app reads it: an interaction's `payload`, or an Events API body. */
function parse(body: string): Payload {
  const form = new URLSearchParams(body).get('payload');
  return JSON.parse(form ?? body) as Payload;
}

describe('the fake Slack behind the local page', () => {
  let slack: FakeSlack;
  let app: Server;
  let delivered: Payload[];

  const webApi = async (method: string, args: Payload) => {
    const response = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-test', 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return (await response.json()) as Payload;
  };

  beforeEach(async () => {
    delivered = [];
    app = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        delivered.push(parse(body));
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    slack = await startFakeSlack({
      users: { U0ALICE: { name: 'alice', tz: 'Europe/Berlin' } },
    });
    slack.connectApp({
      requestUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`,
      signingSecret: 'secret',
      unfurlDomains: ['app.lensmor.com'],
    });
  });

  afterEach(async () => {
    await slack.close();
    await new Promise((resolve) => app.close(resolve));
  });

  it('posts a typed message with its links as Slack shows them, and sends link_shared for the app’s domains only', async () => {
    // Act
    await slack.sendMessage({
      user: 'U0ALICE',
      channel: 'C0GENERAL',
      text: 'see https://app.lensmor.com/events/26855 and https://example.com/x',
    });

    // Assess
    const [message] = slack.messages('C0GENERAL');
    expect(message?.text).toBe('see <https://app.lensmor.com/events/26855> and <https://example.com/x>');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.event).toMatchObject({
      type: 'link_shared',
      channel: 'C0GENERAL',
      message_ts: message?.ts,
      links: [{ domain: 'app.lensmor.com', url: 'https://app.lensmor.com/events/26855' }],
    });
  });

  it('sends nothing for a message without links on the app’s domains', async () => {
    // Act
    const answer = await slack.sendMessage({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'hello' });

    // Assess
    expect(answer).toBeUndefined();
    expect(delivered).toEqual([]);
  });

  it('clicks a button of an unfurl as a block action from the unfurled attachment', async () => {
    // Prepare
    const url = 'https://app.lensmor.com/events/26855';
    await slack.sendMessage({ user: 'U0ALICE', channel: 'C0GENERAL', text: url });
    const ts = slack.messages('C0GENERAL')[0]?.ts ?? '';
    const button = { type: 'button', action_id: 'event.fit', text: { type: 'plain_text', text: 'Fit' } };
    const unfurled = await webApi('chat.unfurl', {
      channel: 'C0GENERAL',
      ts,
      unfurls: { [url]: { blocks: [{ type: 'actions', block_id: 'b', elements: [button] }] } },
    });
    expect(unfurled).toMatchObject({ ok: true });

    // Act
    await slack.click({ user: 'U0ALICE', channel: 'C0GENERAL', ts, actionId: 'event.fit' });

    // Assess
    expect(delivered[1]).toMatchObject({
      type: 'block_actions',
      is_app_unfurl: true,
      container: { type: 'message_attachment', message_ts: ts, channel_id: 'C0GENERAL', app_unfurl_url: url },
      actions: [{ action_id: 'event.fit', block_id: 'b' }],
    });
  });

  it('refuses a form with an empty required field in the modal, then submits it shaped as view.state.values', async () => {
    // Prepare
    const opened = await webApi('views.open', {
      trigger_id: triggerId('U0ALICE'),
      view: {
        type: 'modal',
        title: { type: 'plain_text', text: 'Search' },
        submit: { type: 'plain_text', text: 'Go' },
        blocks: [
          {
            type: 'input',
            block_id: 'where',
            label: { type: 'plain_text', text: 'Where' },
            element: { type: 'conversations_select', action_id: 'value', response_url_enabled: true },
          },
        ],
      },
    });
    expect(opened).toMatchObject({ ok: true });

    // Act
    const refused = await slack.submitForm({ user: 'U0ALICE', inputs: {} });
    const sent = await slack.submitForm({ user: 'U0ALICE', inputs: { where: { value: 'C0EVENTS' } } });

    // Assess
    expect(refused).toBeUndefined();
    expect(sent?.status).toBe(200);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      type: 'view_submission',
      view: { state: { values: { where: { value: { selected_conversation: 'C0EVENTS' } } } } },
      response_urls: [{ block_id: 'where', action_id: 'value', channel_id: 'C0EVENTS' }],
    });
    // An empty answer closes the modal.
    expect(slack.modal('U0ALICE')).toBeUndefined();
  });

  it('submits a prefilled field the user left alone at its initial value, as Slack does', async () => {
    // Prepare
    const field = (blockId: string, element: Payload) => ({
      type: 'input',
      block_id: blockId,
      optional: true,
      label: { type: 'plain_text', text: blockId },
      element: { action_id: 'value', ...element },
    });
    const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
    await webApi('views.open', {
      trigger_id: triggerId('U0ALICE'),
      view: {
        type: 'modal',
        title: { type: 'plain_text', text: 'Settings' },
        submit: { type: 'plain_text', text: 'Save' },
        blocks: [
          field('cap', { type: 'number_input', is_decimal_allowed: false, initial_value: '500' }),
          field('note', { type: 'plain_text_input', initial_value: 'keep me' }),
          field('zone', {
            type: 'static_select',
            options: [option('UTC'), option('Europe/Berlin')],
            initial_option: option('Europe/Berlin'),
          }),
          field('time', { type: 'timepicker', initial_time: '08:30' }),
          field('people', { type: 'multi_users_select', initial_users: ['U0ALICE'] }),
          field('boxes', { type: 'checkboxes', options: [option('a')], initial_options: [option('a')] }),
          field('empty', { type: 'plain_text_input' }),
        ],
      },
    });

    // Act: the user changes the cap and clears the note; the rest stays as shown.
    await slack.submitForm({ user: 'U0ALICE', inputs: { cap: { value: '700' }, note: { value: null } } });

    // Assess
    expect(delivered[0]).toMatchObject({
      type: 'view_submission',
      view: {
        state: {
          values: {
            cap: { value: { type: 'number_input', value: '700' } },
            note: { value: { type: 'plain_text_input', value: null } },
            zone: { value: { type: 'static_select', selected_option: option('Europe/Berlin') } },
            time: { value: { type: 'timepicker', selected_time: '08:30' } },
            people: { value: { type: 'multi_users_select', selected_users: ['U0ALICE'] } },
            boxes: { value: { type: 'checkboxes', selected_options: [option('a')] } },
            empty: { value: { type: 'plain_text_input', value: null } },
          },
        },
      },
    });
  });

  it('closes the top modal, telling the app only when the view asked (notify_on_close)', async () => {
    // Prepare
    const view = (notify: boolean) => ({
      type: 'modal',
      title: { type: 'plain_text', text: notify ? 'Asks' : 'Quiet' },
      notify_on_close: notify,
      blocks: [],
    });
    await webApi('views.open', { trigger_id: triggerId('U0ALICE'), view: view(true) });
    await webApi('views.push', { trigger_id: triggerId('U0ALICE'), view: view(false) });

    // Act
    const quiet = await slack.closeView({ user: 'U0ALICE' });
    const below = slack.modal('U0ALICE');
    const told = await slack.closeView({ user: 'U0ALICE' });

    // Assess
    expect(quiet).toBeUndefined();
    expect(below?.view.title).toEqual({ type: 'plain_text', text: 'Asks' });
    expect(told?.status).toBe(200);
    expect(delivered).toMatchObject([{ type: 'view_closed', is_cleared: false }]);
    expect(slack.modal('U0ALICE')).toBeUndefined();
  });

  it('delivers a message posted to a user id into the app’s DM with that user', async () => {
    // Act
    const posted = await webApi('chat.postMessage', { channel: 'U0ALICE', text: 'hi' });
    const opened = await webApi('conversations.open', { users: 'U0ALICE' });

    // Assess
    expect(posted).toMatchObject({ ok: true, channel: 'DU0ALICE' });
    expect(opened).toMatchObject({ ok: true, channel: { id: 'DU0ALICE' } });
    expect(slack.messages('DU0ALICE').map((m) => m.text)).toEqual(['hi']);
  });

  it('keeps a file the app uploads to a DM and lists it on the page with its name, size and bytes', async () => {
    // Prepare: a CSV as the Web API client's files.uploadV2 sends it (URL, bytes, complete)
    const csv = 'event,credits\n26855,"1,200"\nMünchen,0\n';
    const asked = await webApi('files.getUploadURLExternal', { filename: 'spend.csv', length: 40 });
    const uploaded = await fetch(String(asked.upload_url), { method: 'POST', body: csv });
    expect(uploaded.status).toBe(200);

    // Act
    const completed = await webApi('files.completeUploadExternal', {
      channel_id: 'U0ALICE',
      initial_comment: 'Your spend export',
      files: [{ id: asked.file_id, title: 'Spend this month' }],
    });

    // Assess: the page lists the file in Alice's DM with the app, without its bytes
    expect(completed.ok).toBe(true);
    const state = (await (await fetch(`${slack.url}/local/state?user=U0ALICE`)).json()) as {
      messages: { channel: string; text: string; files?: Record<string, unknown>[] }[];
    };
    const shared = state.messages.find((m) => m.channel === 'DU0ALICE' && m.files);
    expect(shared?.text).toBe('Your spend export');
    const [file] = shared?.files ?? [];
    expect(file).toEqual({
      id: asked.file_id,
      name: 'spend.csv',
      title: 'Spend this month',
      size: Buffer.byteLength(csv),
      url: `/local/files/${String(asked.file_id)}/spend.csv`,
    });
    // …and serves its bytes as uploaded: opened as CSV, or saved under its name
    const opened = await fetch(`${slack.url}${String(file?.url)}`);
    expect(opened.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await opened.text()).toBe(csv);
    const saved = await fetch(`${slack.url}${String(file?.url)}?download`);
    expect(saved.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''spend.csv");
    expect(await saved.text()).toBe(csv);
    expect((await fetch(`${slack.url}/local/files/F404`)).status).toBe(404);
  });
});
