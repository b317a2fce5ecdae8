export { WEEKDAYS } from './types.js';
export type { Weekday, WeeklyRange, DateOverride, Availability, Interval } from './types.js';
export { AVAILABILITY_ERRORS } from './errors.js';
export { validateAvailability, AVAILABILITY_LIMITS } from './validate-availability.js';
export { isWithinAvailability } from './within-availability.js';
export { overlaps, findConflict } from './overlaps.js';
export { bookingInterval, BOOKING_LIMITS } from './booking-interval.js';
