import { randomBytes, randomUUID } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { SHORTLINK_ID_MAX_LENGTH, SHORTLINK_ID_PATTERN, parseShortlinkId } from '@platform/links';
import { longUrlOf } from '../../input.js';
import { isCustomized } from '@platform/qr';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, idempotentCreate, security } from '../../schemas.js';
import { assertLogo, customizationsOf, expirationOf, invalid, summaryOf } from './qr-code.js';
import {
  Archived,
  ExpirationAt,
  Gs1Input,
  GroupGuid,
  QrCodeSummary,
  RenderCustomizationsInput,
  Tags,
  Title,
} from './schemas.js';

const LinkId = (description: string) =>
  OptionalNullableSaying(
    Type.String({ maxLength: SHORTLINK_ID_MAX_LENGTH, pattern: SHORTLINK_ID_PATTERN, description }),
    'must be a short link such as sho.rt/abc1234',
  );
/** At least one of them as a string; a short link wins over a long URL. */
const oneOf = ['shortlink_id', 'bitlink_id', 'long_url'].map((name) => Type.Object({ [name]: Type.String() }));

const Destination = Type.Object(
  {
    shortlink_id: LinkId('A short link of the group, such as sho.rt/abc1234.'),
    bitlink_id: LinkId('The same as shortlink_id (its former name).'),
    long_url: OptionalNullableSaying(
      Type.String({ maxLength: 2048, description: 'http(s): a new short link is made for it on the group domain.' }),
      'must be a string of at most 2048 characters',
    ),
  },
  { anyOf: oneOf, errorMessage: 'needs a shortlink_id or a long_url' },
);

const Body = Type.Object({
  group_guid: GroupGuid,
  destination: Destination,
  title: Title,
  render_customizations: RenderCustomizationsInput,
  gs1: Gs1Input,
  archived: Archived,
  expiration_at: ExpirationAt,
  tags: Tags,
});

export function createQrCodeRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/qr-codes',
    {
      schema: {
        summary: 'Create a QR code for a short link or a long URL',
        description: 'It encodes its short link with ?qr=<qrcode_id>, by which a redirect through it counts as a scan.',
        tags: ['qr-codes'],
        security,
        headers: idempotentCreate.headers,
        body: Body,
        response: { 201: QrCodeSummary, ...errorResponses, ...idempotentCreate.responses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const body = request.body;
      const access = await accessTo(deps, caller, body.group_guid);
      const { destination } = body;
      let shortlinkId: string | null = null;
      let longUrl: string | null = null;
      const linkRaw = destination.shortlink_id ?? destination.bitlink_id;
      if (linkRaw != null) {
        const id = parseShortlinkId(linkRaw);
        if (!id)
          throw invalid(
            'destination.shortlink_id',
            'shortlink_id is a short link such as sho.rt/abc1234',
            'INVALID_ARG_SHORTLINK_ID',
          );
        shortlinkId = `${id.domain}/${id.hash}`;
      } else {
        longUrl = await longUrlOf(deps, destination.long_url ?? '', 'destination.long_url');
      }
      const customizations = customizationsOf(body.render_customizations, 'full');
      await assertLogo(deps, caller, customizations);
      const expiration = expirationOf(body.expiration_at);
      const { qrcodeId, commandId } = await deps.idempotency.ids(request, () => ({
        qrcodeId: `Q${randomBytes(5).toString('hex')}`,
        commandId: randomUUID(),
      }));
      await deps.commands.send(
        MessageTypeNames.CreateQrCode,
        access.group._id,
        {
          organization_id: caller.environment_id,
          user_id: caller._id,
          qrcode_id: qrcodeId,
          group_guid: access.group._id,
          shortlink_id: shortlinkId,
          long_url: longUrl,
          domain: access.group.domain_preference ?? deps.defaultDomain,
          title: body.title ?? null,
          render_customizations: JSON.stringify(customizations),
          is_customized: isCustomized(customizations),
          gs1_values: body.gs1 ? body.gs1.values.map(({ key, value }) => ({ key, value })) : null,
          archived: body.archived ?? false,
          expiration_at: expiration.at,
          tags: body.tags ?? [],
        },
        { commandId },
      );
      return reply.code(201).send(await summaryOf(deps, caller, qrcodeId));
    },
  );
}
