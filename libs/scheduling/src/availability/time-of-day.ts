const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

export const START_OF_DAY = '00:00';
export const END_OF_DAY = '24:00';

/** "HH:MM" from 00:00 to 23:59; "24:00" too when the time ends a range. */
export function isTimeOfDay(value: string, { endOfRange }: { endOfRange: boolean }): boolean {
  return TIME_OF_DAY.test(value) || (endOfRange && value === END_OF_DAY);
}

/** Minutes since the (wall-clock) start of the day of a validated "HH:MM". */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}
