import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import { CONFIRMATION_WORDS } from '../../src/slack/kit/confirmation-card.ts';
import {
  type BrowserSession,
  closeBrowserSession,
  confirmSpend,
  goToChannel,
  newestWith,
  newExhibitorAppears,
  openBrowserSession,
  openPage,
  send,
  threadReply,
} from './support/local-page.ts';

// `npm run docs:screenshot`: writes docs/dev-page.png, the README's picture of the local Slack page,
// from the tour's walk (docs/using.md, "Tour"; test/e2e/tour.e2e.test.ts): a fit card, the plan, an
// alert for a watched account and a confirmed unlock with its results in the thread. Its own dev
// stack, DynamoDB Local and chromium; nothing else needs to run.

// Lambda runs Node 22; the SDK's notice about older Node versions is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const PICTURE = 'docs/dev-page.png';
const EMOJI_FONT_PACKAGE = 'fonts-noto-color-emoji';

/** Chromium draws emoji as empty boxes without a colour emoji font: no picture rather than that one. */
function emojiFontInstalled(): boolean {
  try {
    return /emoji/i.test(execFileSync('fc-list', { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

async function walkTheTour({ page, stack }: BrowserSession) {
  await openPage(page, stack);
  await goToChannel(page, 'events');
  await send(page, '/events fit 26855');
  const fit = await newestWith(page, /Fit \d+\.\d \/ 10/);
  await fit.message.getByRole('button', { name: 'Share in channel' }).click();
  await newestWith(page, 'Shared by');
  await send(page, '/events plan add 27317');
  await newestWith(page, /Added .* to this channel’s plan/);
  await send(page, `/events watch add ${KNOWN_COMPANY_NAME}`);
  await newestWith(page, /now watches 1 more account/);
  await newExhibitorAppears(page);
  await send(page, '/events watch check');
  const alert = await newestWith(page, 'A watched account will exhibit');
  await alert.message.getByRole('button', { name: /Unlock \d+ emails/ }).click();
  const card = await newestWith(page, CONFIRMATION_WORDS.heading);
  await confirmSpend(page, card.message);
  await threadReply(card.message, /unlocked of \d+/).waitFor({ timeout: 45_000 });
  // The page keeps the newest answer in view; no button under the mouse in the picture.
  await page.mouse.move(0, 0);
}

if (!emojiFontInstalled()) {
  process.stderr.write(
    `No colour emoji font (fc-list lists none): the picture would show boxes for emoji. ` +
      `Install one (apt-get install -y ${EMOJI_FONT_PACKAGE}) and run again.\n`,
  );
  process.exit(1);
}
let session: BrowserSession | undefined;
try {
  session = await openBrowserSession();
  await walkTheTour(session);
  mkdirSync('docs', { recursive: true });
  await session.page.screenshot({ path: PICTURE });
  process.stdout.write(`Wrote ${PICTURE}\n`);
} catch (error) {
  process.stderr.write(`docs:screenshot failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await closeBrowserSession(session);
}
