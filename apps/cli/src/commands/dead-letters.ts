import { TOPIC_CATALOGUE } from '@platform/contracts';
import { listDeadLetters, replayDeadLetters, type DeadLetter } from '@platform/kafka';
import type { config } from '../config.js';
import { cliKafka } from '../kafka.js';
import { UsageError } from '../usage-error.js';

const USAGE = 'dlq list <topic> [--type <record type>] | dlq replay <topic> [--type <record type>]';

const line = (letter: DeadLetter) =>
  [
    letter.offset,
    letter.time ?? '-',
    letter.type ?? '-',
    letter.id ?? '-',
    letter.key ?? '-',
    letter.attempts ?? '-',
    letter.error ?? '-',
  ].join('\t');

/**
 * dlq list <topic>: the messages of `<topic>.dlq` (offset, time, type, id, key, attempts, error), read without
 * committing; dlq replay <topic>: publishes them to `<topic>` again and prints a line per message (see
 * docs/operations.md, "Replay a dead-letter topic").
 */
export async function deadLettersCommand(
  cfg: ReturnType<typeof config.get>,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
) {
  const [verb, topic] = args;
  if (!topic || (verb !== 'list' && verb !== 'replay')) throw new UsageError(USAGE);
  if (!TOPIC_CATALOGUE.some((entry) => entry.name === topic)) {
    throw new UsageError(
      `${topic} is not a topic of the catalogue: ${TOPIC_CATALOGUE.map((entry) => entry.name).join(', ')}`,
    );
  }
  const types = typeof flags['type'] === 'string' ? [flags['type']] : undefined;
  const kafka = cliKafka(cfg);
  const options = { topic, ...(types ? { types } : {}) };
  if (verb === 'list') {
    for (const letter of await listDeadLetters(kafka, options)) out(line(letter));
    return;
  }
  const { replayed, skipped } = await replayDeadLetters(kafka, { ...options, onReplay: (letter) => out(line(letter)) });
  console.error(`replayed ${replayed} message(s) to ${topic}${skipped ? `, left ${skipped} of other types` : ''}`);
}
