import type { EisCore } from './core.ts';
import { PageInput, parseInput } from './input.ts';
import { type AgentFilePage, AgentFilePageSchema } from './schemas.ts';

export interface AgentFilesApi {
  /** Generated files of the key owner, newest first. Free. */
  list(page?: number): Promise<AgentFilePage>;
}

export function createAgentFilesApi(core: EisCore): AgentFilesApi {
  return {
    async list(page) {
      const valid = parseInput('agentFiles.list', PageInput, page);
      return core.request({
        operation: 'agentFiles.list',
        method: 'GET',
        path: '/external/agent-files/list',
        query: { page: valid },
        charging: false,
        schema: AgentFilePageSchema,
      });
    },
  };
}
