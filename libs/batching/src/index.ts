export { roundTripBatcher, type BatchedRoundTrip } from './round-trip-batcher.js';
