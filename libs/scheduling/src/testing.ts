/** Fixtures for tests of the scheduling documents' users (handlers, allocation): not for production code. */

/** The members every stored scheduling aggregate has, as written at `at` by command `cmd-0`, nothing pending. */
export function storedAggregate(at: Date) {
  return {
    command_id: 'cmd-0',
    created_at: at,
    updated_at: at,
    deleted_at: null,
    outbox: [],
    has_outbox: false,
  };
}
