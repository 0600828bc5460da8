import { EXHIBITOR_COLUMNS } from './export-views.ts';
import { similarExhibitorList } from './exhibitor-views.ts';
import { defineList, text } from './definition.ts';

/** `/events similar`: exhibitors like a company or an audience. */
export const SIMILAR = defineList({
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
});
