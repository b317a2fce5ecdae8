import { html, type SafeHtml } from '../html.js';
import { layout, type PageViewer } from './layout.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not logged in',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request too large',
  415: 'Unsupported request',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
  504: 'Temporarily unavailable',
};

export function errorTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Request failed');
}

export function errorPage(options: {
  status: number;
  message: string;
  viewer: PageViewer | null;
  title?: string;
  testId?: string;
}): SafeHtml {
  const title = options.title ?? errorTitle(options.status);
  return layout({
    title,
    viewer: options.viewer,
    body: html`<h1>${title}</h1>
<p${options.testId ? html` data-testid="${options.testId}"` : ''}>${options.message}</p>
<p><a href="/settings/developer/oauth">Back to your OAuth clients</a></p>`,
  });
}
