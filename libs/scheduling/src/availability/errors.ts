import { InputError, type FieldIssue } from '@platform/errors';

/** Stable codes of the availability rules; each error lists its problems as field issues. */
export const AVAILABILITY_ERRORS = {
  invalidAvailability: (issues: FieldIssue[]) => new InputError('invalid_availability', messageOf(issues), { issues }),
  invalidBooking: (issues: FieldIssue[]) => new InputError('invalid_booking', messageOf(issues), { issues }),
} as const;

function messageOf(issues: FieldIssue[]): string {
  const [first] = issues;
  if (!first) return 'Invalid input.';
  return issues.length === 1
    ? first.message
    : `${first.message} (and ${issues.length - 1} more problem${issues.length === 2 ? '' : 's'})`;
}
