import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'redirector', config, load: () => import('./service.js') });
