import { type InstallationStore, InvalidStateError, type StateStore } from '@slack/oauth';
import type { InstallationRepository, OAuthStateRepository } from '../store/index.ts';

/**
 * `@slack/oauth`'s two stores over the table, for `InstallProvider` (and Bolt's `installationStore`):
 *
 *   new InstallProvider({ installationStore: slackInstallationStore(store.installations),
 *                         stateStore: slackStateStore(store.oauthStates), … });
 *
 * The store knows nothing of Slack; here its repositories meet the library's interfaces (the
 * compiler checks the shapes agree) and a refused state becomes the library's `InvalidStateError`.
 */

export function slackInstallationStore(installations: InstallationRepository): InstallationStore {
  return {
    storeInstallation: (installation) => installations.storeInstallation(installation),
    fetchInstallation: (query) => installations.fetchInstallation(query),
    deleteInstallation: (query) => installations.deleteInstallation(query),
  };
}

export function slackStateStore(states: OAuthStateRepository): StateStore {
  return {
    generateStateParam: (installOptions, now) => states.create(installOptions, now),
    async verifyStateParam(now, state) {
      const taken = await states.take(state, now);
      if (!taken.ok) throw new InvalidStateError(taken.reason);
      return taken.installOptions;
    },
  };
}
