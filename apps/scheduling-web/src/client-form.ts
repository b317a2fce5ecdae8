import type { ClientInput, OAuthClientDoc } from '@platform/oauth';
import { listField, textField, type Fields } from './form.js';

export type ClientKind = 'confidential' | 'public';

const KINDS: readonly string[] = ['confidential', 'public'];

/** The client form's values exactly as typed, so a form with errors comes back as the user left it. */
export interface ClientFormValues {
  name: string;
  logoUrl: string;
  websiteUrl: string;
  purpose: string;
  /** The textarea's text: one URI per line. */
  redirectUris: string;
  kind: ClientKind;
  scopes: string[];
  /** A kind sent that is neither (refused rather than taken as confidential). */
  unknownKind?: string;
}

export const EMPTY_CLIENT_FORM: ClientFormValues = {
  name: '',
  logoUrl: '',
  websiteUrl: '',
  purpose: '',
  redirectUris: '',
  kind: 'confidential',
  scopes: [],
};

export function clientFormFromBody(fields: Fields): ClientFormValues {
  const kind = textField(fields, 'kind', 100);
  return {
    ...(kind !== '' && !KINDS.includes(kind) ? { unknownKind: kind } : {}),
    name: textField(fields, 'name', 1000),
    logoUrl: textField(fields, 'logo_url', 4096).trim(),
    websiteUrl: textField(fields, 'website_url', 4096).trim(),
    purpose: textField(fields, 'purpose', 10_000),
    redirectUris: textField(fields, 'redirect_uris', 40_000),
    kind: kind === 'public' ? 'public' : 'confidential',
    scopes: listField(fields, 'scopes').slice(0, 100),
  };
}

export function clientFormFromDoc(client: OAuthClientDoc): ClientFormValues {
  return {
    name: client.name,
    logoUrl: client.logo_url ?? '',
    websiteUrl: client.website_url ?? '',
    purpose: client.purpose,
    redirectUris: client.redirect_uris.join('\n'),
    kind: client.kind,
    scopes: client.scopes,
  };
}

/** What validateClientInput checks; blank lines of the textarea are not URIs. */
export function clientInput(values: ClientFormValues): ClientInput {
  return {
    name: values.name,
    logoUrl: values.logoUrl || null,
    websiteUrl: values.websiteUrl || null,
    purpose: values.purpose,
    redirectUris: values.redirectUris.split(/\r?\n/).filter((line) => line.trim().length > 0),
    scopes: values.scopes,
  };
}
