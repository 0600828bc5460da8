/** Shows' ids already turned into public ones (an id the service knows no show by maps to itself). */
export interface ShowIdCache {
  known(ids: readonly string[]): Promise<Map<string, string>>;
  remember(publicIds: ReadonlyMap<string, string>): Promise<void>;
}
