/**
 * `APP_*` variables that are no setting: a misspelled name (`APP_STRIPE_SECRET_KEY` for
 * `APP_STRIPE_API_KEY`) would otherwise be ignored without a word and leave a feature off.
 * Each is reported with the known name nearest to it.
 */
export interface UnknownSetting {
  name: string;
  /** The nearest known setting, when one is near enough to be a likely typo. */
  suggestion: string | undefined;
}

/** Names from other conventions that are far from ours by spelling, but mean one of ours. */
const SYNONYMS: Readonly<Record<string, string>> = {
  SECRET_KEY: 'API_KEY',
  ENV: 'ENVIRONMENT',
  DB: 'DATABASE',
  HOST: 'URL',
};

/** The edit distance between two names (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function nearest(name: string, known: readonly string[]): string | undefined {
  const spellings = [name, Object.entries(SYNONYMS).reduce((n, [from, to]) => n.replace(new RegExp(`(?<=_)${from}(?=_|$)`), to), name)];
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = Math.min(...spellings.map((spelling) => editDistance(spelling, candidate)));
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // Beyond about a third of the name, the nearest is a guess rather than a correction.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** `APP_IGNORE_SETTINGS`: comma-separated names to leave unreported. */
export function ignoredSettings(list: string | undefined): Set<string> {
  return new Set((list ?? '').split(',').map((name) => name.trim()).filter((name) => name.length > 0));
}

/** The `APP_*` names of `env` that are not in `known` nor in `ignored`, each with its nearest known name. */
export function unknownSettings(env: Record<string, string | undefined>, known: readonly string[], ignored: ReadonlySet<string>): UnknownSetting[] {
  const knownSet = new Set(known);
  return Object.keys(env)
    .filter((name) => name.startsWith('APP_') && !knownSet.has(name) && !ignored.has(name))
    .sort()
    .map((name) => ({ name, suggestion: nearest(name, known) }));
}

export function describeUnknown(setting: UnknownSetting): string {
  return `${setting.name} is not a setting${setting.suggestion ? `: did you mean ${setting.suggestion}?` : ''}`;
}
