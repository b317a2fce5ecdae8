import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';
import { addBrandedDomain, addGroupMember, setUpOrganization } from './organization.handlers.js';
import { saveCampaign, saveChannel } from './campaign.handlers.js';
import { updateGroup, updateUser } from './group.handlers.js';
import { createQrCode, deleteQrCode, saveQrLogo, setOrganizationFeatures, updateQrCode } from './qr.handlers.js';
import { deleteWebhook, saveWebhook, verifyWebhook } from './webhook.handlers.js';
import { bulkEditShortlinks, createShortlink, deleteShortlink, updateShortlink } from './shortlink.handlers.js';

type N = typeof MessageTypeNames;
export type LinksCommand =
  | N['SetUpLinksOrganization']
  | N['AddLinksGroupMember']
  | N['AddBrandedDomain']
  | N['CreateShortlink']
  | N['UpdateShortlink']
  | N['DeleteShortlink']
  | N['BulkEditShortlinks']
  | N['UpdateLinksGroup']
  | N['UpdateLinksUser']
  | N['SaveCampaign']
  | N['SaveChannel']
  | N['SaveWebhook']
  | N['DeleteWebhook']
  | N['VerifyWebhook']
  | N['CreateQrCode']
  | N['UpdateQrCode']
  | N['DeleteQrCode']
  | N['SaveQrLogo']
  | N['SetLinksOrganizationFeatures'];

/** Every links command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: CommandHandlerMap<LinksCommand, HandlerDeps> = {
  'platform.links.commands.SetUpLinksOrganization': setUpOrganization,
  'platform.links.commands.AddLinksGroupMember': addGroupMember,
  'platform.links.commands.AddBrandedDomain': addBrandedDomain,
  'platform.links.commands.CreateShortlink': createShortlink,
  'platform.links.commands.UpdateShortlink': updateShortlink,
  'platform.links.commands.DeleteShortlink': deleteShortlink,
  'platform.links.commands.BulkEditShortlinks': bulkEditShortlinks,
  'platform.links.commands.UpdateLinksGroup': updateGroup,
  'platform.links.commands.UpdateLinksUser': updateUser,
  'platform.links.commands.SaveCampaign': saveCampaign,
  'platform.links.commands.SaveChannel': saveChannel,
  'platform.links.commands.SaveWebhook': saveWebhook,
  'platform.links.commands.DeleteWebhook': deleteWebhook,
  'platform.links.commands.VerifyWebhook': verifyWebhook,
  'platform.links.commands.CreateQrCode': createQrCode,
  'platform.links.commands.UpdateQrCode': updateQrCode,
  'platform.links.commands.DeleteQrCode': deleteQrCode,
  'platform.links.commands.SaveQrLogo': saveQrLogo,
  'platform.links.commands.SetLinksOrganizationFeatures': setOrganizationFeatures,
};

export type { HandlerDeps } from './deps.js';
