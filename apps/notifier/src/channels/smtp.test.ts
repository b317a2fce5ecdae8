import { TEMPLATE_IDS } from '@platform/notifications';
import { describe, expect, it } from 'vitest';
import { subjectOf } from './smtp.js';

describe('the e-mail Subject', () => {
  it('is the title as plain text', () => {
    expect(subjectOf({ title: '# Deploy **done**', template_id: TEMPLATE_IDS.customNotification })).toBe('Deploy done');
  });

  it("is the template's name when the title is blank (a custom notification with a message only)", () => {
    expect(subjectOf({ title: '', template_id: TEMPLATE_IDS.customNotification })).toBe('Custom Notification');
    expect(subjectOf({ title: '  ', template_id: TEMPLATE_IDS.customNotification })).toBe('Custom Notification');
  });
});
