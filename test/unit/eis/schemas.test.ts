import { describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../src/eis/core.ts';
import {
  ContactUnlockSubmissionSchema,
  EventItemSchema,
  EventUnlockResultSchema,
  FullAccessUnlockResultSchema,
  PersonnelItemSchema,
  VisitorUnlockResultSchema,
} from '../../../src/eis/schemas.ts';
import {
  concurrencyEnvelope,
  creditBalance,
  eventItem,
  featureEnvelope,
  page,
  personnelItem,
  unlockResult,
} from '../../support/fake-service.ts';

describe('eis schemas: sourceType', () => {
  it.each([
    [
      ['exhibitor', 'visitors'],
      ['exhibitor', 'visitors'],
    ],
    ['social', ['social']],
    ['exhibitor, social', ['exhibitor', 'social']],
    [null, []],
    [undefined, []],
  ])('normalises sourceType %j to %j', (sourceType, expected) => {
    // Prepare
    const item = personnelItem({ sourceType });

    // Act
    const parsed = PersonnelItemSchema.parse(item);

    // Assess
    expect(parsed.sourceType).toEqual(expected);
  });
});

describe('eis schemas: credits spent', () => {
  it('normalises creditsUsed of the base unlock to creditsSpent', () => {
    // Act
    const parsed = EventUnlockResultSchema.parse(unlockResult({ creditsUsed: 2000 }));

    // Assess
    expect(parsed.creditsSpent).toBe(2000);
    expect(parsed).not.toHaveProperty('creditsUsed');
  });

  it('keeps creditsSpent of the visitor unlock', () => {
    // Act
    const parsed = VisitorUnlockResultSchema.parse({
      ...unlockResult({ creditsUsed: undefined }),
      creditsSpent: 3000,
      balanceAfter: creditBalance(),
    });

    // Assess
    expect(parsed.creditsSpent).toBe(3000);
  });

  it('normalises totalCreditsUsed of the full-access unlock to creditsSpent', () => {
    // Act
    const parsed = FullAccessUnlockResultSchema.parse({
      ...unlockResult({ creditsUsed: undefined }),
      eventUnlocked: true,
      visitorUnlocked: true,
      visitorSkipped: false,
      totalCreditsUsed: 5000,
      balanceAfter: null,
    });

    // Assess
    expect(parsed.creditsSpent).toBe(5000);
    expect(parsed).not.toHaveProperty('totalCreditsUsed');
  });

  it('rejects an unlock result with no credits field in any spelling', () => {
    // Act
    const result = EventUnlockResultSchema.safeParse(unlockResult({ creditsUsed: undefined }));

    // Assess
    expect(result.success).toBe(false);
  });

  it('gives a contact unlock submission creditsSpent (null when not reported) and one taskId', () => {
    // Act
    const accepted = ContactUnlockSubmissionSchema.parse({
      status: 'accepted',
      task_id: '321',
      job_id: '321',
    });
    const charged = ContactUnlockSubmissionSchema.parse({ status: 'success', creditsUsed: 0 });

    // Assess
    expect(accepted).toMatchObject({ taskId: '321', creditsSpent: null });
    expect(charged).toMatchObject({ taskId: null, creditsSpent: 0 });
  });

  it('rejects an accepted submission without a task id', () => {
    // Act
    const result = ContactUnlockSubmissionSchema.safeParse({ status: 'accepted' });

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('eis schemas: shapes', () => {
  it('lets unknown members through', () => {
    // Act
    const parsed = EventItemSchema.parse(eventItem({ brandNewField: { x: 1 } }));

    // Assess
    expect(parsed).toMatchObject({ brandNewField: { x: 1 } });
  });

  it('needs only id, eventId and name on an event summary, and accepts null where the spec says or null', () => {
    // Act
    const minimal = EventItemSchema.safeParse({ id: '1', eventId: 'e1', name: null });
    const missingName = EventItemSchema.safeParse({ id: '1', eventId: 'e1' });
    const nulls = EventItemSchema.safeParse(eventItem({ city: null, exhibitorCount: null, dateStart: null }));

    // Assess
    expect(minimal.success).toBe(true);
    expect(missingName.success).toBe(false);
    expect(nulls.success).toBe(true);
  });

  it('refuses null where the spec does not allow it', () => {
    // Act
    const result = EventItemSchema.safeParse(eventItem({ hasVisitors: null }));

    // Assess
    expect(result.success).toBe(false);
  });
});

describe('eis error envelope detection', () => {
  it('recognises the concurrency and feature envelopes', () => {
    // Act
    const concurrency = errorEnvelope(concurrencyEnvelope());
    const feature = errorEnvelope(featureEnvelope());

    // Assess
    expect(concurrency).toMatchObject({ code: 429, errorKey: 'USER_CONCURRENCY_LIMIT_EXCEEDED' });
    expect(feature).toMatchObject({ code: 400, errorKey: 'USER_HAS_NO_FEATURE' });
  });

  it.each([
    ['a success page', page([eventItem()])],
    ['a page with a string fallback code', { ...page([]), code: 'AI_SEARCH_RESULT_MISMATCH' }],
    ['a code below 400', { code: 200, errorKey: 'OK', data: null }],
    ['an envelope that carries data', { code: 429, errorKey: 'X', data: { items: [] } }],
    ['an array', [1, 2]],
  ])('does not take %s for an envelope', (_name, body) => {
    // Act
    const envelope = errorEnvelope(body);

    // Assess
    expect(envelope).toBeUndefined();
  });
});
