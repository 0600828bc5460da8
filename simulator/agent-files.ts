/** The account's agent files, as the spec's Agent file item gives them (not in the OpenAPI). */
export interface SeededAgentFile {
  id: string;
  fileName: string;
  fileSize: number | null;
  mimeType: string;
  status: string;
  createdAt: string;
}

const DAY_MS = 86_400_000;

/** Five files, newest first from `today` at noon, three days apart. */
export function buildAgentFiles(today: string): SeededAgentFile[] {
  const base = Date.parse(`${today}T12:00:00Z`);
  const files: [string, number | null, string][] = [
    ['event-shortlist.csv', 18_432, 'text/csv'],
    ['exhibitor-research.pdf', 482_113, 'application/pdf'],
    ['contacts-export.xlsx', 96_200, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['outreach-drafts.md', 7_310, 'text/markdown'],
    ['fit-report.json', null, 'application/json'],
  ];
  return files.map(([fileName, fileSize, mimeType], i) => ({
    id: String(9001 + i),
    fileName,
    fileSize,
    mimeType,
    status: 'uploaded',
    createdAt: String(base - i * 3 * DAY_MS),
  }));
}
