import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { AgentFilePage } from './schemas.ts';

export interface AgentFilesApi {
  /** Generated files of the key owner, newest first. Free. */
  list(page?: number): Promise<AgentFilePage>;
}

export function createAgentFilesApi(core: EisCore): AgentFilesApi {
  return {
    list: (page) => call(core, rowOf('agentFiles.list'), page, (valid) => ({ query: { page: valid } })),
  };
}
