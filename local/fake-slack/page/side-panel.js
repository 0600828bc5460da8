// The side panel: "Run now" jobs, the service's data, what a job said, and the credit account.

import { $, el } from './dom.js';
import { postJson, view } from './state.js';
import { mrkdwn } from './text.js';

export function renderJobs() {
  $('jobs').replaceChildren(
    ...view.state.jobs.map((job) =>
      el('button', {
        type: 'button',
        'data-job': job,
        text: `Run now: ${job}`,
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          const target = event.currentTarget;
          try {
            const answer = await postJson(`/local/jobs/${job}`, {});
            showJobResult(job, answer.ok ? answer.said : `failed: ${answer.error}`);
          } finally {
            target.disabled = false;
          }
          refreshAccount();
        },
      }),
    ),
  );
}

// The service adds a known exhibitor to another upcoming show: what account watch would then announce.
export async function addExhibitor(event) {
  const button = event.currentTarget;
  button.disabled = true;
  const box = $('new-exhibitor-result');
  try {
    const answer = await postJson('/local/sim/new-exhibitor', {});
    box.textContent = answer.ok ? answer.message : `Could not add an exhibitor: ${answer.error}`;
  } finally {
    box.hidden = false;
    button.disabled = false;
  }
}

export function showJobResult(job, result) {
  const box = $('job-result');
  box.hidden = false;
  box.dataset.job = job;
  // The words may hold `code` (a command to try): shown as Slack shows mrkdwn.
  box.innerHTML = mrkdwn(`${job}: ${typeof result === 'string' ? result : JSON.stringify(result)}`);
}

const credits = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

export async function refreshAccount() {
  if (!view.state?.hasAccount) {
    $('balance').textContent = 'not available';
    return;
  }
  const response = await fetch('/local/account');
  const account = await response.json();
  if (!account.ok) {
    $('balance').textContent = 'unavailable';
    return;
  }
  $('balance').textContent = credits(account.balance);
  if (account.ledger.length === 0) {
    $('ledger').replaceChildren(el('li', { class: 'ledger-empty', text: 'No charges yet' }));
    return;
  }
  $('ledger').replaceChildren(
    ...[...account.ledger].reverse().map((entry) =>
      el('li', {}, [
        el('span', { class: 'credits', text: `−${credits(entry.credits)} ` }),
        el('span', {
          text: [entry.action, entry.eventId, entry.personnelIds?.join(' ')].filter(Boolean).join(' · '),
        }),
        entry.at ? el('div', { class: 'help-summary', text: new Date(entry.at).toLocaleTimeString() }) : null,
      ]),
    ),
  );
}
