/** Test-only key material: never used outside the test suites. */
export const TEST_SECRETS = {
  API_KEY_PEPPER: 'test-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'test-sealing-key-0123456789abcdef',
};

/** Test-only OAuth key material. */
export const TEST_OAUTH_SECRETS = {
  OAUTH_ACCESS_TOKEN_KEYS: 'test-access-token-key-0123456789abcdef-0123',
  OAUTH_SECRET_PEPPER: 'test-oauth-pepper-0123456789abcdef-0123456',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef-01234',
};
