/**
 * The notification templates every deployment has. Ids are stable: clients keep them in preferences and
 * filters. Where Coder has the same template its id is kept; the platform's own have ids of their own.
 */
export type TemplateKind = 'system' | 'custom';
export type TemplateMethod = '' | 'smtp' | 'webhook';

export interface NotificationTemplate {
  id: string;
  name: string;
  title_template: string;
  body_template: string;
  /** JSON: `[{label, url}]` templates, rendered with the notification. */
  actions: string;
  group: string;
  /** Empty: the deployment's default method (plus the inbox). */
  method: TemplateMethod;
  kind: TemplateKind;
  enabled_by_default: boolean;
}

export type IconFamily = 'account' | 'workspace' | 'template' | 'other';

export interface TemplateDefinition extends NotificationTemplate {
  /** The inbox icon a notification of this template shows when it has none of its own. */
  icon: IconFamily;
}

export const TEMPLATE_IDS = {
  testNotification: 'c425f63e-716a-4bf4-ae24-78348f706c3f',
  userAccountCreated: '4e19c0ac-94e1-4532-9515-d1801aa283b2',
  customNotification: '39b1e189-c857-4b0c-877a-511144c18516',
  oauthClientAccepted: '0b5f7c4e-2f1d-4c9a-9a31-6d2e8f4b7a10',
  oauthClientRejected: '7c3e9d12-5a4b-4e8f-b1c6-2d9a0f3e5b21',
  imageQuotaNearlyUsed: 'e4a8b2c6-9d1f-4a7e-8c3b-5f6a2d9e1c32',
} as const;

const actions = (list: Array<{ label: string; url: string }>) => JSON.stringify(list);

export const TEMPLATES: readonly TemplateDefinition[] = [
  {
    id: TEMPLATE_IDS.testNotification,
    name: 'Troubleshooting Notification',
    title_template: 'A test notification',
    body_template: 'This is a test notification.',
    actions: actions([]),
    group: 'Notification Events',
    method: '',
    kind: 'system',
    enabled_by_default: true,
    icon: 'other',
  },
  {
    id: TEMPLATE_IDS.userAccountCreated,
    name: 'User account created',
    title_template: 'User account "{{.Labels.created_account_name}}" created',
    body_template:
      'New user account **{{.Labels.created_account_name}}** has been created.\n\nThis new user account was created {{if .Labels.created_account_user_name}}for **{{.Labels.created_account_user_name}}** {{end}}by **{{.Labels.initiator}}**.',
    actions: actions([]),
    group: 'User Events',
    method: '',
    kind: 'system',
    enabled_by_default: true,
    icon: 'account',
  },
  {
    id: TEMPLATE_IDS.oauthClientAccepted,
    name: 'OAuth client accepted',
    title_template: 'Your OAuth client "{{.Labels.client_name}}" was accepted',
    body_template:
      'The OAuth client **{{.Labels.client_name}}** ({{.Labels.client_id}}) passed review and may now ask users for access.{{if .Labels.reason}}\n\nNote from the reviewer: {{.Labels.reason}}{{end}}',
    actions: actions([{ label: 'View client', url: '{{.Labels.client_url}}' }]),
    group: 'OAuth Events',
    method: 'smtp',
    kind: 'system',
    enabled_by_default: true,
    icon: 'account',
  },
  {
    id: TEMPLATE_IDS.oauthClientRejected,
    name: 'OAuth client rejected',
    title_template: 'Your OAuth client "{{.Labels.client_name}}" was rejected',
    body_template:
      'The OAuth client **{{.Labels.client_name}}** ({{.Labels.client_id}}) did not pass review and cannot be used.{{if .Labels.reason}}\n\nReason given by the reviewer: {{.Labels.reason}}{{end}}\n\nYou can change it and submit it again.',
    actions: actions([{ label: 'View client', url: '{{.Labels.client_url}}' }]),
    group: 'OAuth Events',
    method: 'smtp',
    kind: 'system',
    enabled_by_default: true,
    icon: 'account',
  },
  {
    id: TEMPLATE_IDS.imageQuotaNearlyUsed,
    name: 'Image quota nearly used up',
    title_template: 'Image compressions: {{.Labels.used}} of {{.Labels.quota}} used this month',
    body_template:
      'The account **{{.Labels.account_id}}** has used {{.Labels.percent}} % of its {{.Labels.quota}} compressions for {{.Labels.month}}.',
    actions: actions([]),
    group: 'Image Events',
    method: '',
    kind: 'system',
    enabled_by_default: true,
    icon: 'other',
  },
  {
    id: TEMPLATE_IDS.customNotification,
    name: 'Custom Notification',
    title_template: '{{.Labels.custom_title}}',
    body_template: '{{.Labels.custom_message}}',
    actions: actions([]),
    group: 'Custom Events',
    method: '',
    kind: 'custom',
    enabled_by_default: true,
    icon: 'other',
  },
];

const FALLBACK_ICONS: Record<IconFamily, string> = {
  account: 'DEFAULT_ICON_ACCOUNT',
  workspace: 'DEFAULT_ICON_WORKSPACE',
  template: 'DEFAULT_ICON_TEMPLATE',
  other: 'DEFAULT_ICON_OTHER',
};

/** A notification's icon, or its template family's fallback when it has none (as Coder shows them). */
export function iconOf(notification: { icon: string; template_id: string }): string {
  if (notification.icon.trim().length > 0) return notification.icon;
  const family = TEMPLATES.find((t) => t.id === notification.template_id)?.icon ?? 'other';
  return FALLBACK_ICONS[family];
}

export function templatesOfKind(kind: TemplateKind): NotificationTemplate[] {
  return TEMPLATES.filter((t) => t.kind === kind)
    .map(({ icon: _icon, ...template }) => template)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The deployment that holds the users the platform notifies about their things elsewhere (an OAuth client's
 * owner, an image account) when no user of another deployment is linked to them.
 */
export const PLATFORM_NOTICES_DEPLOYMENT = 'environment_platform_notices';

/** What a notifications user can be linked to: `<kind>:<id>`. */
export const LINK_PATTERN = /^(scheduling-user|images-account):[A-Za-z0-9_.-]{1,200}$/;
