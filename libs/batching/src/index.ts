export { roundTripBatcher } from './round-trip-batcher.js';
