import type { DemographicDimension, DemographicValue } from '../model/schemas.js'
import { pastTimestamp, seededFaker, seededUuid } from './random.js'

const DIMENSIONS: Array<{ name: string; description: string; values: Array<[string, string]> }> = [
  {
    name: 'Age group',
    description: 'Age bands used to build test populations',
    values: [
      ['18-24', '18 to 24'],
      ['25-34', '25 to 34'],
      ['35-44', '35 to 44'],
      ['45-54', '45 to 54'],
      ['55-64', '55 to 64'],
      ['65+', '65 and over'],
    ],
  },
  {
    name: 'Region',
    description: 'Where the simulated user is based',
    values: [
      ['emea', 'Europe, Middle East & Africa'],
      ['amer', 'Americas'],
      ['apac', 'Asia-Pacific'],
    ],
  },
  {
    name: 'Occupation',
    description: 'What the simulated user does for a living',
    values: [
      ['student', 'Student'],
      ['engineer', 'Engineer'],
      ['nurse', 'Nurse'],
      ['retired', 'Retired'],
      ['artist', 'Artist'],
    ],
  },
]

/** The seeded dimensions and their values (sort_order 0, 1, 2, ... in the listed order). */
export function buildDimensions(seed: number): { dimensions: DemographicDimension[]; values: DemographicValue[] } {
  const faker = seededFaker(seed, 3)
  const dimensions: DemographicDimension[] = []
  const values: DemographicValue[] = []
  for (const spec of DIMENSIONS) {
    const dimension = {
      id: seededUuid(faker),
      name: spec.name,
      description: spec.description,
      created_at: pastTimestamp(faker, 800),
    }
    dimensions.push(dimension)
    spec.values.forEach(([value, displayName], sortOrder) => {
      values.push({
        id: seededUuid(faker),
        dimension_id: dimension.id,
        value,
        created_at: dimension.created_at + sortOrder,
        display_name: displayName,
        value_metadata: sortOrder % 2 === 0 ? { source: 'seed', weight: faker.number.int({ min: 1, max: 9 }) } : {},
        sort_order: sortOrder,
      })
    })
  }
  return { dimensions, values }
}
