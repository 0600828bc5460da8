import { EXHIBITOR_COLUMNS } from './export-views.ts';
import { similarExhibitorList } from './exhibitor-views.ts';
import { defineList, text } from './definition.ts';
import { asCompanyUrl } from '../../kit/command-arguments.ts';

type SimilarCommand = { name: 'similar'; companyUrl?: string; targetAudience?: string };

/** `/events similar`: exhibitors like a company or an audience. */
export const SIMILAR = defineList({
  audience: 'anyone',
  shape: { companyUrl: text, targetAudience: text },
  filters: {},
  read: (query, page, pageSize, eis) => eis.exhibitors.searchByContext({ ...query, page, pageSize }),
  card: ({ page, query }) => similarExhibitorList({ page, query }),
  export: {
    noun: 'exhibitors',
    title: (q) => `Exhibitors like ${q.companyUrl ?? q.targetAudience ?? 'your company'}`,
    filename: () => 'similar-exhibitors.csv',
    columns: EXHIBITOR_COLUMNS,
    pageSize: 100,
  },
  command: {
    usage: 'similar <company_url or audience text>',
    example: 'similar https://acme.example',
    summary: 'Exhibitors like a company or audience',
    parse(words) {
      const text = words.join(' ');
      if (!text) return { ok: false, problem: 'Give a company website or a description of your audience.' };
      if (text.length > 500) return { ok: false, problem: 'The description is longer than 500 characters.' };
      const url = asCompanyUrl(text);
      const command: SimilarCommand = {
        name: 'similar',
        ...(url ? { companyUrl: url } : { targetAudience: text }),
      };
      return { ok: true, command };
    },
    query: ({ companyUrl, targetAudience }) => ({ companyUrl, targetAudience }),
  },
});
