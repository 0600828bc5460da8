import { describe, expect, it } from 'vitest';
import { KNOWN_COMPANY_NAME } from '../../simulator/server.ts';
import { browserSessionForFile } from './support/browser.ts';

// Driven in Debian's chromium through playwright-core (test/e2e/support/browser.ts).

describe('npm run dev: the service data panel', () => {
  const browser = browserSessionForFile();

  it('adds the known company to another upcoming show when "A new exhibitor appears" is clicked, and says which', async () => {
    const { page, stack } = browser;
    // Prepare
    await page.goto(stack.slackUrl);
    await page.locator('body[data-ready]').waitFor();
    const company = stack.sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
    if (!company) throw new Error('seed has no known company');
    const eventsBefore = [...company.eventIds];

    // Act
    await page.getByRole('button', { name: 'A new exhibitor appears' }).click();
    const result = page.getByRole('status').filter({ hasText: 'now exhibits at' });
    await result.waitFor();

    // Assess: the page names the show, and the service's free endpoint now lists it
    const text = (await result.textContent()) ?? '';
    const eventId = text.match(/\(event (\d+)\)/)?.[1];
    const added = stack.sim.events.find((e) => e.eventId === eventId);
    if (!added) throw new Error(`the page named no known event: ${text}`);
    expect(text).toContain(`${KNOWN_COMPANY_NAME} (${company.domain}) now exhibits at ${added.name}`);
    expect(eventsBefore).not.toContain(added.id);
    expect(added.dateStart > stack.sim.today).toBe(true);
    const response = await fetch(
      `${stack.simulatorUrl}/external/exhibitors/events?exhibitor_id=${company.id}&attendance_scope=exhibitor`,
      { headers: { authorization: `Bearer ${stack.apiKey}` } },
    );
    const listed = ((await response.json()) as { items: { eventId: string }[] }).items;
    expect(listed.map((e) => e.eventId)).toContain(eventId);

    // Act again: another click, another show
    await page.getByRole('button', { name: 'A new exhibitor appears' }).click();
    await page
      .getByRole('status')
      .filter({ hasNotText: `(event ${eventId})` })
      .waitFor();
    expect(company.eventIds).toHaveLength(eventsBefore.length + 2);
  }, 60_000);
});
