export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export type Weekday = (typeof WEEKDAYS)[number];

/** Wall-clock times "HH:MM" (24h) in the schedule's time zone; endTime may be "24:00", the end of the day. */
export interface WeeklyRange {
  days: Weekday[];
  startTime: string;
  endTime: string;
}

/**
 * The overrides of a date replace that whole date's weekly availability. An override whose startTime and
 * endTime are both "00:00" marks the date unavailable all day.
 */
export interface DateOverride {
  date: string;
  startTime: string;
  endTime: string;
}

export interface Availability {
  timeZone: string;
  weekly: WeeklyRange[];
  overrides: DateOverride[];
}

/** Half-open: [start, end). */
export interface Interval {
  start: Date;
  end: Date;
}
