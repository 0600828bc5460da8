/** Removes the key from anything that came from the outside world before it is kept on an error. */
export function scrub(text: string, apiKey: string): string {
  return text.split(apiKey).join('[redacted]');
}

/** A parsed body with every occurrence of the key redacted; the value itself when it holds none. */
export function scrubValue(value: unknown, apiKey: string): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  return json === undefined || !json.includes(apiKey) ? value : JSON.parse(scrub(json, apiKey));
}

/** A copy of a thrown error fit to keep as a `cause`: name, scrubbed message and string `code` only. */
export function safeCause(error: unknown, apiKey: string): Error {
  const source = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(scrub(source.message, apiKey));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}
