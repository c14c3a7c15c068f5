import { z } from 'zod'
import { FreeFormObject } from './schemas.js'
import type { Profile } from './profile.js'

/**
 * The parameters and bodies of the three operations, as the imagined FastAPI endpoints
 * declare them (`decisions.md`). Field order is the endpoint signature's order, which is
 * the order FastAPI reports validation errors in. `handlers/fastapi/pydantic.ts` reads these
 * schemas and validates exactly as pydantic would; the OpenAPI document is built from them.
 */
export const ListPersonasQuery = z.object({
  team_id: z.uuid().nullable().optional().describe('Team ID (required)'),
  intents: z.array(z.string()).nullable().optional(),
  is_preset: z.boolean().nullable().optional(),
  search: z.string().nullable().optional(),
  limit: z.int().min(1).max(100).default(10),
  offset: z.int().min(0).default(0),
})

export const BulkAddPath = z.object({ dimension_id: z.uuid() })

export const DemographicValueCreate = z.object({
  value: z.string().min(1).max(255),
  display_name: z.string().nullable().optional(),
  metadata: FreeFormObject.default(() => ({})),
  sort_order: z.int().nullable().optional(),
})

export const BulkAddValues = z.object({
  values: z.array(DemographicValueCreate).max(1000),
})

export const ListRulesPath = z.object({ policy_id: z.uuid() })

/** The rules paging parameters: their names and default are a profile setting. */
export const listRulesQuery = (paging: Profile['rulesPaging']) =>
  z.object({
    [paging.limit]: z.int().min(1).max(1000).default(paging.defaultLimit),
    [paging.offset]: z.int().min(0).default(0),
  })
