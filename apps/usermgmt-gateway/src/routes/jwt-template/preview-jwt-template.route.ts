import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { JWT_TEMPLATE_MAX_LENGTH, renderJwtTemplate } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

/** A template with no expressions: what a token carries when the environment has none. */
const NO_TEMPLATE = '{}';

export function previewJwtTemplateRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/user_management/jwt_template/preview',
    {
      schema: {
        summary: 'Render a JWT template for a user, without saving it',
        description:
          "The claims the template (the given content, or the environment's saved one) adds to a token of the user. Beyond WorkOS.",
        tags: ['user management'],
        security,
        body: Type.Object(
          {
            user_id: Type.String({ minLength: 1, maxLength: 64 }),
            content: Type.Optional(Type.String({ minLength: 2, maxLength: JWT_TEMPLATE_MAX_LENGTH })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            object: Type.Literal('jwt_template_preview'),
            claims: Type.Record(Type.String(), Type.Unknown(), { description: 'The custom claims, as JSON.' }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { user_id, content } = request.body;
      const [user, saved] = await Promise.all([
        deps.store.users.get(request.environmentId, user_id),
        content === undefined ? deps.store.jwtTemplates.get(request.environmentId) : null,
      ]);
      if (!user) throw new NotFoundError('entity_not_found', `User not found: '${user_id}'.`);
      const claims = renderJwtTemplate(content ?? saved?.content ?? NO_TEMPLATE, {
        environment: { id: request.environmentId },
        user: { ...user, id: user._id, metadata: user.metadata ?? {} },
        // This service keeps no organization memberships yet.
        organization: null,
      });
      return { object: 'jwt_template_preview' as const, claims };
    },
  );
}
