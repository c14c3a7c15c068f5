import { z } from 'zod'

/**
 * The claims the imagined server reads from its HS256 JWT. A token whose payload does not
 * fit (no `sub`, a `permissions` that is not a list of strings, ...) is refused with 401,
 * like any other token that cannot be validated.
 */
export const Claims = z.object({
  sub: z.string().min(1),
  team_id: z.string().nullable().optional(),
  permissions: z.array(z.string()).default([]),
  is_super_admin: z.boolean().default(false),
  iat: z.number().optional(),
  exp: z.number().optional(),
  nbf: z.number().optional(),
})

export type Claims = z.output<typeof Claims>
export type ClaimsInput = z.input<typeof Claims> & Record<string, unknown>

/** The permission names the three operations check. */
export const Permission = {
  personaRead: 'persona:read',
  policyRead: 'policy:read',
} as const
