import { Type, ref } from '@platform/http';
import { shortlinkJson } from '@platform/links';
import { Shortlink } from '../shortlinks/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupTopLinksRoute = groupMetric({
  suffix: '/engagements/top',
  summary: "The group's links with the most engagements",
  withSize: true,
  response: Type.Object({
    links: Type.Array(ref(Shortlink)),
    sorted_links: Type.Array(
      Type.Object({ clicks: Type.Integer({ description: 'Its engagements' }), id: Type.String() }),
    ),
  }),
  answer: async ({ organizationId, scope, query, since }, deps) => {
    const ranked = (await deps.analytics.topLinks(scope, query, since)).slice(0, query.size);
    const docs = await Promise.all(ranked.map((r) => deps.store.getLink(organizationId, r.value)));
    // A link deleted since its clicks is left out.
    const present = ranked.flatMap((r, i) => (docs[i] ? [{ rank: r, doc: docs[i] }] : []));
    const view = { apiBase: deps.publicBaseUrl, scheme: deps.scheme };
    return {
      links: present.map((p) => shortlinkJson(p.doc, view)),
      sorted_links: present.map((p) => ({ clicks: p.rank.count, id: p.rank.value })),
    };
  },
});
