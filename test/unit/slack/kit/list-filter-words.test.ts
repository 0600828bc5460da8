import { describe, expect, it } from 'vitest';
import { commandOf, problemOf } from '../../../support/commands.ts';

describe('list filters as key:value words', () => {
  it('reads exhibitor filters, values running to the next key', () => {
    expect(
      commandOf('exhibitors 26855 payments country:United States title:VP Sales level:Director dept:Finance'),
    ).toEqual({
      name: 'exhibitors',
      eventId: '26855',
      keyword: 'payments',
      filters: { country: 'United States', title: 'VP Sales', level: 'Director', department: 'Finance' },
    });
    expect(commandOf('exhibitors 26855')).toEqual({ name: 'exhibitors', eventId: '26855' });
  });

  it('reads people filters, and normalises sources', () => {
    expect(commandOf('people 26855 cto exhibitor:4100 source:Visitor,social')).toEqual({
      name: 'people',
      eventId: '26855',
      query: 'cto',
      filters: { exhibitor: '4100', source: 'visitors,social' },
    });
    expect(problemOf('people 26855 exhibitor:acme')).toContain('is not an exhibitor id');
    expect(problemOf('people 26855 source:email')).toContain('is not a source');
  });

  it('reads recommend filters with keywords and checks the employee bounds', () => {
    expect(commandOf('recommend 26855 payments name:Acme employees-min:10')).toEqual({
      name: 'recommend',
      eventId: '26855',
      filters: { keywords: 'payments', name: 'Acme', 'employees-min': '10' },
    });
    expect(commandOf('recommend 26855')).toEqual({ name: 'recommend', eventId: '26855', filters: {} });
    expect(problemOf('recommend 26855 employees-min:ten')).toContain('is not a whole number');
  });

  it('reads shows-for: a website or an audience, then filters', () => {
    expect(commandOf('shows-for acme.example country:Germany from:2027-01-01')).toEqual({
      name: 'shows-for',
      companyUrl: 'https://acme.example/',
      filters: { country: 'Germany', from: '2027-01-01' },
    });
    expect(commandOf('shows-for payment teams in retail')).toEqual({
      name: 'shows-for',
      targetAudience: 'payment teams in retail',
      filters: {},
    });
    expect(problemOf('shows-for acme.example from:2027-02-30')).toContain('is not a date');
    expect(problemOf('shows-for acme.example from:2027-03-01 to:2027-01-01')).toContain('is after');
    expect(problemOf('shows-for acme.example regoin:Bavaria')).toContain('Did you mean `region:`?');
  });

  it('reads a paid search page and a contact unlock event', () => {
    expect(commandOf('company Acme Analytics page:3')).toEqual({
      name: 'company',
      companyName: 'Acme Analytics',
      page: 3,
    });
    expect(commandOf('who Jane Smith page:1')).toEqual({ name: 'who', fullName: 'Jane Smith' });
    expect(problemOf('exhibitor Acme page:0')).toContain('a page is a number from 1');
    expect(commandOf('emails 100001 event:26855 100002')).toEqual({
      name: 'emails',
      personnelIds: ['100001', '100002'],
      eventId: '26855',
    });
    expect(problemOf('emails 100001 event:abc')).toContain('is not an event id');
  });
});
