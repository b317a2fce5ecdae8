import { describe, expect, it } from 'vitest';
import { markdownToPlaintext } from './plaintext.js';
import { renderActions, renderTemplate } from './render.js';
import { TEMPLATE_IDS, TEMPLATES, iconOf, templatesOfKind } from './templates.js';

describe('templates', () => {
  it('render labels and the recipient, conditionals, and <no value> for what is missing', () => {
    const created = TEMPLATES.find((t) => t.id === TEMPLATE_IDS.userAccountCreated)!;
    expect(renderTemplate(created.title_template, { labels: { created_account_name: 'bob' } })).toBe(
      'User account "bob" created',
    );
    expect(renderTemplate(created.body_template, { labels: { created_account_name: 'bob', initiator: 'ada' } })).toBe(
      'New user account **bob** has been created.\n\nThis new user account was created by **ada**.',
    );
    expect(
      renderTemplate(created.body_template, {
        labels: { created_account_name: 'bob', created_account_user_name: 'Bob B', initiator: 'ada' },
      }),
    ).toContain('created for **Bob B** by');
    expect(
      renderTemplate('Hi {{.UserName}}, {{.Labels.missing}}{{if .Labels.x}}yes{{else}}no{{end}}', {
        labels: {},
        userName: 'Ada',
      }),
    ).toBe('Hi Ada, <no value>no');
  });

  it('render actions, leaving out entries that are not {label, url}', () => {
    expect(
      renderActions('[{"label":"View","url":"{{.Labels.u}}"},{"label":3}]', { labels: { u: 'https://x.test/c/1' } }),
    ).toEqual([{ label: 'View', url: 'https://x.test/c/1' }]);
    expect(renderActions('not json', { labels: {} })).toEqual([]);
  });

  it('keep stable ids and list each kind by name, and fall back to the family icon', () => {
    expect(TEMPLATE_IDS.testNotification).toBe('c425f63e-716a-4bf4-ae24-78348f706c3f');
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    const names = templatesOfKind('system').map((t) => t.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(templatesOfKind('custom').map((t) => t.id)).toEqual([TEMPLATE_IDS.customNotification]);
    expect(templatesOfKind('system')[0]).not.toHaveProperty('icon');
    expect(iconOf({ icon: '', template_id: TEMPLATE_IDS.userAccountCreated })).toBe('DEFAULT_ICON_ACCOUNT');
    expect(iconOf({ icon: '', template_id: TEMPLATE_IDS.customNotification })).toBe('DEFAULT_ICON_OTHER');
    expect(iconOf({ icon: 'https://x.test/i.png', template_id: TEMPLATE_IDS.customNotification })).toBe(
      'https://x.test/i.png',
    );
  });
});

describe('markdown as plain text', () => {
  it('drops markup, writes links and images as text (url), and keeps list items readable', () => {
    expect(markdownToPlaintext('# Notification Title')).toBe('Notification Title');
    expect(markdownToPlaintext('This is the __content__.')).toBe('This is the content.');
    expect(markdownToPlaintext('Job t_mwub_ef72 of snake_case_name is _done_.')).toBe(
      'Job t_mwub_ef72 of snake_case_name is done.',
    );
    expect(
      markdownToPlaintext(
        'See [the client](https://x.test/c) and ![logo](https://x.test/l.png), `code`, ~~old~~ *new*.',
      ),
    ).toBe('See the client (https://x.test/c) and logo (https://x.test/l.png), code, old new.');
    expect(markdownToPlaintext('* one\n* two\n\n1) first\n---\n> quoted')).toBe('- one\n- two\n\n1. first\nquoted');
  });
});
