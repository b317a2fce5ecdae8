/** Test-only key material: never used outside the test suites. */
export const TEST_SECRETS = {
  API_KEY_PEPPER: 'test-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'test-sealing-key-0123456789abcdef',
};
