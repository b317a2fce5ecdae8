import type { DispatchMethod, NotificationsStore, NotificationsWriter, OutgoingDoc } from '@platform/notifications';
import { createLogger } from '@platform/telemetry';
import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, type MethodSender } from './dispatcher.js';
import type { LaneLeases } from './lane-leases.js';

const LANE = 'dep_1:user_1';

function outgoing(n: number, methods: DispatchMethod[]): OutgoingDoc {
  const at = new Date(Date.now() - 1000);
  return {
    _id: `cause_${n}:user_1`,
    deployment_id: 'dep_1',
    user_id: 'user_1',
    lane: LANE,
    notification_id: `0190c5a8-0000-7000-8000-00000000000${n}`,
    template_id: 't',
    targets: [],
    title: `n${n}`,
    content: '',
    icon: '',
    actions: [],
    email: null,
    labels: {},
    recipient: { name: 'U', username: 'u' },
    methods: methods.map((method) => ({
      method,
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      error: null,
      done_at: null,
    })),
    pending: methods.length,
    pending_methods: methods,
    next_attempt_at: at,
    created_at: at,
    outbox: [],
    has_outbox: false,
  };
}

/** One lane in memory: what the store holds (documents become visible when their insert is stored). */
function lane() {
  const docs: OutgoingDoc[] = [];
  /** The store reads of the lane, in order. */
  const reads: string[] = [];
  const store = {
    settings: { get: async () => ({ notifier_paused: false }) },
    outgoing: {
      laneHead: async (_lane: string, method: DispatchMethod) => {
        reads.push(`head:${method}`);
        return (
          docs
            .filter((d) => d.pending_methods.includes(method))
            .sort((a, b) => a.notification_id.localeCompare(b.notification_id))[0] ?? null
        );
      },
      lanePending: async (_lane: string, limit: number) => {
        reads.push('lane');
        // Copies, as a store's read gives: the dispatcher's view of the lane is not the store's documents.
        return structuredClone(
          docs
            .filter((d) => d.pending_methods.length > 0)
            .sort((a, b) => a.notification_id.localeCompare(b.notification_id))
            .slice(0, limit),
        );
      },
    },
  };
  /** Unread changes begun and not yet ended (by the dispatcher, or by the inbox method it hands one to). */
  const openChanges = new Set<string>();
  let changes = 0;
  const writer = {
    unread: {
      begin: async () => {
        const token = `t${++changes}`;
        openChanges.add(token);
        return { token, before: 0 };
      },
      end: async (_lane: string, token: string) => void openChanges.delete(token),
    },
    outgoing: {
      source: 'notif_outgoing',
      change: async (
        filter: { _id: string },
        fields: Record<string, unknown>,
        _events: unknown,
        more: { $pull: { pending_methods: DispatchMethod } },
      ) => {
        const doc = docs.find((d) => d._id === filter._id)!;
        const index = Number(Object.keys(fields)[0]!.split('.')[1]);
        // As the store's conditional update: a delivery recorded already is not recorded again.
        if (doc.methods[index]!.status !== 'pending') return false;
        doc.methods[index]!.status = fields[`methods.${index}.status`] as 'sent';
        doc.pending_methods = doc.pending_methods.filter((m) => m !== more.$pull.pending_methods);
        return true;
      },
    },
  } as unknown as NotificationsWriter;
  /** The lane's lease, as the queue in Redis keeps it (one holder: this process). */
  const leases = {
    hold: async () => true,
    release: async () => undefined,
    due: async () => [],
    schedule: async () => undefined,
  } as LaneLeases;
  return { docs, store: store as unknown as NotificationsStore, writer, leases, openChanges, reads };
}

function dispatcherOn(
  l: ReturnType<typeof lane>,
  senders: Partial<Record<DispatchMethod, MethodSender>>,
  leaseMs = 15_000,
) {
  return createDispatcher({
    store: l.store,
    writer: l.writer,
    senders: { inbox: senders.inbox ?? null, smtp: senders.smtp ?? null, webhook: senders.webhook ?? null },
    logger: createLogger({ name: 'dispatcher-test', level: 'silent' }),
    leases: l.leases,
    maxAttempts: 3,
    retryBaseMs: 1000,
    // No sweep during a test: what is sent is sent by the kicks.
    sweepMs: 3_600_000,
    leaseMs,
  });
}

/** After every microtask queued so far: a kick's `then` has run. */
const microtasksDone = () => new Promise((resolve) => setImmediate(resolve));

describe('dispatcher', () => {
  it('sends a notification kicked while its insert is on its way, though the lane read came before the insert', async () => {
    const l = lane();
    const sent: string[] = [];
    const dispatcher = dispatcherOn(l, { inbox: async (doc) => (sent.push(doc.title), 'sent') });
    dispatcher.start();
    const doc = outgoing(1, ['inbox']);
    let stored!: () => void;
    const insert = new Promise<OutgoingDoc>((resolve) => (stored = () => (l.docs.push(doc), resolve(doc))));
    // The fake store answers at once: the head was read (empty) as the kick started the drain.
    dispatcher.kick(LANE, insert);
    stored();
    await vi.waitFor(() => expect(sent).toEqual(['n1']));
    await dispatcher.stop();
  });

  it('hands the unread change it began to the first inbox notification, and ends it itself when none is sent', async () => {
    const l = lane();
    const hints: unknown[] = [];
    const dispatcher = dispatcherOn(l, {
      inbox: async (doc, hint) => {
        hints.push(hint?.unread?.token);
        if (hint?.unread) l.openChanges.delete(hint.unread.token); // the inbox method ends what it is handed
        return 'sent';
      },
      smtp: async () => 'sent',
    });
    dispatcher.start();
    l.docs.push(outgoing(1, ['inbox', 'smtp']));
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(l.docs[0]!.pending_methods).toEqual([]));
    expect(hints).toEqual(['t1']);
    // Nothing queued: the change begun with the drain's reads is ended by the dispatcher.
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(l.openChanges.size).toBe(0));
    await dispatcher.stop();
    expect(l.openChanges.size).toBe(0);
  });

  it('ends the unread change it began before sending by slower methods (readers count the inbox while it is open)', async () => {
    const l = lane();
    let mailing!: () => void;
    const mailed = new Promise<void>((resolve) => (mailing = resolve));
    let started = false;
    const dispatcher = dispatcherOn(l, {
      inbox: async () => 'sent',
      smtp: async () => {
        started = true;
        await mailed;
        return 'sent';
      },
    });
    dispatcher.start();
    l.docs.push(outgoing(1, ['smtp']));
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(started).toBe(true));
    expect(l.openChanges.size).toBe(0);
    mailing();
    await dispatcher.stop();
  });

  it('puts a notification queued while an older one is being e-mailed into the inbox before it is e-mailed itself', async () => {
    const l = lane();
    const order: string[] = [];
    let mailed!: () => void;
    const mail = new Promise<void>((resolve) => (mailed = resolve));
    const dispatcher = dispatcherOn(l, {
      inbox: async (doc) => (order.push(`inbox ${doc.title}`), 'sent'),
      smtp: async (doc) => {
        order.push(`smtp ${doc.title} start`);
        if (doc.title === 'n1') await mail;
        order.push(`smtp ${doc.title} done`);
        return 'sent';
      },
    });
    dispatcher.start();
    l.docs.push(outgoing(1, ['inbox', 'smtp']));
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(order).toEqual(['inbox n1', 'smtp n1 start']));
    const second = outgoing(2, ['inbox', 'smtp']);
    l.docs.push(second);
    dispatcher.kick(LANE, Promise.resolve(second));
    await microtasksDone();
    mailed();
    await vi.waitFor(() =>
      expect(order).toEqual(['inbox n1', 'smtp n1 start', 'smtp n1 done', 'inbox n2', 'smtp n2 start', 'smtp n2 done']),
    );
    await dispatcher.stop();
  });

  it('keeps its lease through a send that lasts longer than the lease, and stops once the lane is taken', async () => {
    const l = lane();
    const renewals: number[] = [];
    let taken = false;
    l.leases.hold = async () => (renewals.push(Date.now()), !taken);
    let released = false;
    l.leases.release = async () => void (released = true);
    const sent: string[] = [];
    let slowDone!: () => void;
    const slow = new Promise<void>((resolve) => (slowDone = resolve));
    const dispatcher = dispatcherOn(
      l,
      {
        smtp: async (doc) => {
          sent.push(doc.title);
          if (doc.title === 'n1') await slow;
          return 'sent';
        },
      },
      300,
    );
    dispatcher.start();
    l.docs.push(outgoing(1, ['smtp']), outgoing(2, ['smtp']));
    dispatcher.kick(LANE);
    // The first e-mail takes three leases' time: the lease is renewed meanwhile, every 100 ms.
    await vi.waitFor(() => expect(renewals.length).toBeGreaterThanOrEqual(9), { timeout: 3000 });
    expect(sent).toEqual(['n1']);
    // Another holder has the lane now (this process could not renew in time): the second is left to it.
    taken = true;
    await vi.waitFor(() => expect(renewals.length).toBeGreaterThanOrEqual(11), { timeout: 3000 });
    slowDone();
    // The drain is over once it lets go of the lane; by then the second would have been sent.
    await vi.waitFor(() => expect(released).toBe(true));
    expect(sent).toEqual(['n1']);
    await dispatcher.stop();
  });

  it('lets go of its lane due again at the time of its oldest retry, and not at all when nothing waits', async () => {
    const l = lane();
    const releases: Array<number | undefined> = [];
    l.leases.release = async (_lane, dueAt) => void releases.push(dueAt);
    const dispatcher = dispatcherOn(l, { inbox: async () => 'sent', smtp: async () => 'sent' });
    dispatcher.start();
    const waiting = outgoing(1, ['smtp']);
    const retryAt = new Date(Date.now() + 60_000);
    waiting.methods[0]!.next_attempt_at = retryAt;
    waiting.next_attempt_at = retryAt;
    l.docs.push(waiting);
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(releases).toEqual([retryAt.getTime()]));
    l.docs.length = 0;
    l.docs.push(outgoing(2, ['inbox']));
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(releases).toEqual([retryAt.getTime(), undefined]));
    await dispatcher.stop();
  });

  it('sends a notification by each of its methods from two reads of the lane, one of them made under the lease', async () => {
    const l = lane();
    const sent: string[] = [];
    const dispatcher = dispatcherOn(l, {
      inbox: async (doc) => (sent.push(`inbox:${doc.title}`), 'sent'),
      smtp: async (doc) => (sent.push(`smtp:${doc.title}`), 'sent'),
    });
    dispatcher.start();
    l.docs.push(outgoing(1, ['inbox', 'smtp']), outgoing(2, ['inbox', 'smtp']));
    dispatcher.kick(LANE);
    await vi.waitFor(() => expect(l.docs.every((d) => d.pending_methods.length === 0)).toBe(true));
    expect(sent).toEqual(['inbox:n1', 'inbox:n2', 'smtp:n1', 'smtp:n2']);
    // No read per method and per notification: the heads come from the lane as read.
    expect(l.reads).toEqual(['lane', 'lane']);
    await dispatcher.stop();
  });

  it('e-mails only what a read made under the lease shows: the read beside the lease may predate the former holder sending', async () => {
    const l = lane();
    const sent: string[] = [];
    const dispatcher = dispatcherOn(l, {
      inbox: async (doc) => (sent.push(`inbox:${doc.title}`), 'sent'),
      smtp: async (doc) => (sent.push(`smtp:${doc.title}`), 'sent'),
    });
    // The read beside the lease shows the e-mail still to go; the store has it sent (the former holder sent it
    // between that read and the lease).
    const stale = outgoing(1, ['inbox', 'smtp']);
    stale.methods[0]!.status = 'sent';
    stale.pending_methods = ['smtp'];
    stale.pending = 1;
    const done = structuredClone(stale);
    done.methods[1]!.status = 'sent';
    done.pending_methods = [];
    done.pending = 0;
    l.docs.push(done);
    const store = l.store.outgoing as unknown as {
      lanePending: (lane: string, limit: number) => Promise<OutgoingDoc[]>;
    };
    const read = store.lanePending;
    store.lanePending = async (lane, limit) => {
      if (l.reads.length > 0) return read(lane, limit);
      l.reads.push('lane (stale)');
      return [structuredClone(stale)];
    };
    const released = new Promise<void>((resolve) => (l.leases.release = async () => resolve()));
    dispatcher.start();
    dispatcher.kick(LANE);
    await released;
    await dispatcher.stop();
    expect(sent).toEqual([]);
    expect(l.reads).toEqual(['lane (stale)', 'lane']);
  });
});
