/** Which test stacks' leftovers to remove: one run's (`run`, at its end), or else those older than `maxAgeMs` (3 h). */
export interface LeftBehind {
  run?: string;
  maxAgeMs?: number;
}

/** Whether a name `uniqueName` made (parsed) is to go; a name it did not make never is. */
export function leftBehind(
  which: LeftBehind,
): (made: { time: number; run: string | undefined } | undefined) => boolean {
  if (which.run !== undefined) {
    const run = which.run;
    return (made) => made?.run === run;
  }
  const cutoff = Date.now() - (which.maxAgeMs ?? 3 * 3600_000);
  return (made) => made !== undefined && made.time < cutoff;
}
