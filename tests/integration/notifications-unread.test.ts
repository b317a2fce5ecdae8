import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import {
  createNotificationsStore,
  createNotificationsWriter,
  laneOf,
  type NotificationsStore,
  type NotificationsWriter,
} from '@platform/notifications';
import { resolveInfra, uniqueName } from '@platform/testing';

/** The stored unread count against the real store: always what counting the inbox says, whatever happens to a change. */
let mongo: MongoConnection;
let store: NotificationsStore;
let writer: NotificationsWriter;

beforeAll(async () => {
  const infra = resolveInfra();
  const name = uniqueName('unread');
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  store = createNotificationsStore(mongo);
  writer = createNotificationsWriter(mongo);
  await store.ensureIndexes();
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

let users = 0;
function user() {
  const deployment = 'dep_unread';
  const id = `usr_${++users}`;
  const lane = laneOf(deployment, id);
  let n = 0;
  const insert = (read = false) => {
    const _id = `0190c5a8-0000-7000-8000-${String(users).padStart(4, '0')}${String(++n).padStart(8, '0')}`;
    const doc = {
      _id,
      deployment_id: deployment,
      user_id: id,
      template_id: 't',
      targets: [],
      title: 'T',
      content: 'C',
      icon: '',
      actions: [],
      read_at: read ? new Date() : null,
      created_at: new Date(),
    };
    return writer.inbox.insertOnce(doc, []).then((inserted) => ({ _id, inserted }));
  };
  /** What counting the inbox says, and what the count document states (null: it does not state one). */
  const truth = () =>
    mongo.collection('notif_inbox').countDocuments({ deployment_id: deployment, user_id: id, read_at: null });
  const stated = async () => {
    const doc = await mongo
      .collection<{ _id: string; unread?: number; pending: string[] }>('notif_unread')
      .findOne({ _id: lane });
    return doc && typeof doc.unread === 'number' && doc.pending.length === 0 ? doc.unread : null;
  };
  /** One counted insert, as the inbox method makes it; answers the count it was given before it. */
  const countedInsert = () =>
    writer.unread.counted(lane, async (before) => {
      const counted = await before();
      const { inserted } = await insert();
      return { result: counted, delta: inserted ? 1 : 0 };
    });
  return { deployment, id, lane, insert, truth, stated, countedInsert };
}

describe('the stored unread count', () => {
  it('follows inserts, read and unread changes and mark-all-read, and is read from its document', async () => {
    const u = user();
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(0);
    // Never counted before: the first change counts the inbox (0) and stores the count it ends with.
    expect(await u.countedInsert()).toBe(0);
    expect(await u.stated()).toBe(1);
    // A change begun is handed the stored count, which is not trusted until that change has ended.
    const open = await writer.unread.begin(u.lane);
    expect(open.before).toBe(1);
    expect(await u.stated()).toBeNull();
    await writer.unread.end(u.lane, open.token, 0);
    expect(await u.stated()).toBe(1);
    expect(await u.countedInsert()).toBe(1);
    await u.countedInsert();
    expect(await u.stated()).toBe(3);

    const read = await writer.unread.begin(u.lane);
    const [oldest] = await mongo
      .collection<{ _id: string }>('notif_inbox')
      .find({ user_id: u.id })
      .sort({ _id: 1 })
      .limit(1)
      .toArray();
    const changed = await writer.inbox.change({ _id: oldest!._id, read_at: null }, { read_at: new Date() }, []);
    await writer.unread.end(u.lane, read.token, changed ? -1 : 0);
    expect(await u.stated()).toBe(2);

    const all = await writer.unread.begin(u.lane);
    const marked = await writer.inbox.markAllRead(u.deployment, u.id, new Date());
    await writer.unread.end(u.lane, all.token, -marked);
    expect(marked).toBe(2);
    expect(await u.stated()).toBe(0);
    expect(await u.truth()).toBe(0);
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(0);
  });

  it('adds nothing for a redone insert or a repeated end', async () => {
    const u = user();
    await u.countedInsert();
    const change = await writer.unread.begin(u.lane);
    const { _id } = await u.insert();
    await writer.unread.end(u.lane, change.token, 1);
    await writer.unread.end(u.lane, change.token, 1);
    const again = await writer.unread.begin(u.lane);
    const redone = await writer.inbox.insertOnce(
      {
        _id,
        deployment_id: u.deployment,
        user_id: u.id,
        template_id: 't',
        targets: [],
        title: 'T',
        content: 'C',
        icon: '',
        actions: [],
        read_at: null,
        created_at: new Date(),
      },
      [],
    );
    await writer.unread.end(u.lane, again.token, redone ? 1 : 0);
    expect(redone).toBe(false);
    expect(await u.stated()).toBe(2);
    expect(await u.truth()).toBe(2);
  });

  it('is not trusted while a change is under way: readers count the inbox until every change has ended', async () => {
    const u = user();
    await u.countedInsert();
    const a = await writer.unread.begin(u.lane);
    const b = await writer.unread.begin(u.lane);
    expect(b.before).toBeNull();
    await u.insert();
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(2);
    await writer.unread.end(u.lane, a.token, 1);
    expect(await u.stated()).toBeNull();
    await u.insert();
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(3);
    await writer.unread.end(u.lane, b.token, 1);
    expect(await u.stated()).toBe(3);
  });

  it('is counted again after a change cut off by a crash (its token stays) once the token is stale, or after a failed change', async () => {
    const u = user();
    await u.countedInsert();
    // A notifier killed between its insert and its end: the token stays, the count is one short.
    await writer.unread.begin(u.lane);
    await u.insert();
    expect(await u.stated()).toBeNull();
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(2);
    // A live token is never overridden: the next change ends, but the count stays unstated.
    await u.countedInsert();
    expect(await u.stated()).toBeNull();
    expect(await store.inbox.unreadCount(u.deployment, u.id)).toBe(3);
    // Once the cut-off token is stale (its time is in it), the next change counts the inbox and states it.
    await mongo
      .collection<{ _id: string; pending: string[] }>('notif_unread')
      .updateOne({ _id: u.lane }, { $set: { pending: ['1.deadbeef0000'] } });
    await u.countedInsert();
    expect(await u.stated()).toBe(4);

    // A change whose write failed (it may have landed): the count is forgotten, and the next change counts it.
    await expect(
      writer.unread.counted(u.lane, async () => {
        await u.insert();
        throw new Error('the store did not answer');
      }),
    ).rejects.toThrow('the store did not answer');
    const after = await mongo.collection<{ _id: string; unread?: number }>('notif_unread').findOne({ _id: u.lane });
    expect(after?.unread).toBe(5); // counted again at once: no other change was under way
    expect(await u.truth()).toBe(5);
  });
});
