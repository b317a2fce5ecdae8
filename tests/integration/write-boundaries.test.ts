import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/** The lint rule that keeps each domain's writes in its owning worker (eslint.config.js, WRITERS). */
describe('domain writes stay in the owning worker', () => {
  const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });
  const source =
    "import { createSchedulingWriter } from '@platform/scheduling';\nexport const writer = createSchedulingWriter;\n";
  const errorsIn = async (file: string) =>
    (await eslint.lintText(source, { filePath: file }))[0]!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);

  it('refuses a writer in a gateway, the web app or the CLI, and allows it in its worker', async () => {
    for (const app of ['scheduling-gateway', 'scheduling-web', 'cli', 'oauth-worker']) {
      expect(await errorsIn(`apps/${app}/src/probe.ts`), app).toEqual([
        "'createSchedulingWriter' import from '@platform/scheduling' is restricted. only scheduling-worker writes this domain's data: read through its store, or send it a command",
      ]);
    }
    expect(await errorsIn('apps/scheduling-worker/src/probe.ts')).toEqual([]);
  }, 60_000);
});
