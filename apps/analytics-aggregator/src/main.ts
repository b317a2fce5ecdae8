import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'analytics-aggregator', config, load: () => import('./service.js') });
