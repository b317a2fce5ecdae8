import { Type, type TSchema } from '@platform/http';
import { BitlyTime } from '../schemas.js';
import { UnitSchema } from './query.js';

/** The query an answer is for, as every metrics answer repeats it. */
export const envelope = {
  unit: UnitSchema,
  units: Type.Integer({ description: 'How many units back from unit_reference; -1: all.' }),
  unit_reference: BitlyTime,
};

/** What the engagements are: each kind counted apart. */
export const EngagementCounts = Type.Object({
  lib_button_clicks: Type.Integer(),
  clicks: Type.Integer(),
  scans: Type.Integer(),
});

/** A faceted answer: the first `size` values of the facet, most counted first. */
export const Faceted = (facet: string, item: Record<string, TSchema>) =>
  Type.Object({
    ...envelope,
    facet: Type.Literal(facet),
    metrics: Type.Array(Type.Object(item)),
  });

/** A count per unit, most recent first, zeros included. */
export const Series = Type.Object({
  ...envelope,
  data: Type.Array(Type.Object({ ts: BitlyTime, count: Type.Integer() })),
});

/** Cities with their subdivisions and country; `other_metrics` counts the cities past `size` and those without one. */
export const Cities = (kind: 'clicks' | 'scans') =>
  Type.Object({
    ...envelope,
    facet: Type.Literal('cities'),
    metrics: Type.Array(
      Type.Object({
        [kind]: Type.Integer(),
        city: Type.String(),
        subregion: Type.String(),
        region: Type.String(),
        country: Type.String({ description: 'ISO 3166-1 alpha-2' }),
      }),
    ),
    other_metrics: Type.Object({
      [`other_city_${kind}`]: Type.Integer({ description: 'In the cities past size.' }),
      [`no_city_${kind}`]: Type.Integer({ description: 'Where no city was known.' }),
    }),
  });
