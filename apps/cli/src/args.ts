/** `positional --flag value --switch` into positionals and flags; no dependency for a handful of verbs. */
export function parseArgs(argv: string[]): { positionals: string[]; flags: Record<string, string | true> } {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      const next = argv[i + 1];
      if (inline !== undefined) flags[name!] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        flags[name!] = next;
        i++;
      } else flags[name!] = true;
    } else positionals.push(arg);
  }
  return { positionals, flags };
}
