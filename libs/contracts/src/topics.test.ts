import { describe, expect, it } from 'vitest';
import { MessageTypeNames } from './generated/types.js';
import { TOPIC_CATALOGUE, topicEntry, topicOfRecord } from './topics.js';

describe('the topic catalogue', () => {
  it('lists every topic once, each with records, an owner among its parties and at least one partition', () => {
    const names = TOPIC_CATALOGUE.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const topic of TOPIC_CATALOGUE) {
      expect(topic.records.length, topic.name).toBeGreaterThan(0);
      expect(topic.partitions, topic.name).toBeGreaterThanOrEqual(1);
      expect(topic.retentionMs, topic.name).toBeGreaterThan(0);
      expect([...topic.producers, ...topic.consumers], topic.name).toContain(topic.owner);
      expect(
        topic.name.endsWith(`.${topic.kind}`) || ['webhooks.deliveries', 'links.clicks'].includes(topic.name),
        topic.name,
      ).toBe(true);
    }
  });

  it('puts every record type of schemas/ on exactly one topic', () => {
    for (const type of Object.values(MessageTypeNames)) {
      const on = TOPIC_CATALOGUE.filter((t) => t.records.includes(type)).map((t) => t.name);
      expect(on, type).toEqual([topicOfRecord(type)]);
    }
    expect(TOPIC_CATALOGUE.flatMap((t) => t.records).sort()).toEqual(Object.values(MessageTypeNames).sort());
  });

  it('names an unknown topic in its error', () => {
    expect(() => topicEntry('nope.commands')).toThrow(/nope\.commands is not in the topic catalogue/);
    expect(topicEntry('images.commands').records).toContain(MessageTypeNames.CompressImage);
  });
});
