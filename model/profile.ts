import { z } from 'zod'

/**
 * Where the API description is silent, `decisions.md` settles a default and names the
 * switch. A team aligns the mock with its real server by changing these (the contract
 * verifier reports which value a real server shows).
 */
export const Profile = z
  .object({
    /** Status for a missing or non-Bearer `Authorization`: FastAPI ≥0.122 answers 401, ≤0.121 403. */
    missingCredentialsStatus: z.union([z.literal(401), z.literal(403)]).default(401),
    /** Success status of the bulk add. */
    bulkAddStatus: z.union([z.literal(201), z.literal(200)]).default(201),
    /** `skip`: duplicates are left out of the answer; `reject`: 409 and nothing is added. */
    bulkDuplicates: z.enum(['skip', 'reject']).default('skip'),
    /** Unit of every integer timestamp on the wire. */
    timestampUnit: z.enum(['s', 'ms']).default('s'),
    /** pydantic version: only the UUID "invalid character" message differs. */
    pydantic: z.enum(['2.12', '2.13']).default('2.12'),
    /** Names and default of the rules paging parameters. */
    rulesPaging: z
      .object({
        limit: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('limit'),
        offset: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('offset'),
        defaultLimit: z.int().min(1).max(1000).default(100),
      })
      .strict()
      .refine((paging) => paging.limit !== paging.offset, 'limit and offset need two different names')
      .default({ limit: 'limit', offset: 'offset', defaultLimit: 100 }),
  })
  .strict()

export type Profile = z.output<typeof Profile>
export type ProfileOptions = z.input<typeof Profile>

export const DEFAULT_PROFILE: Profile = Profile.parse({})

/**
 * Merges profile options over the defaults.
 * @throws Error naming each setting that is not valid, and what it accepts.
 * @example resolveProfile({ missingCredentialsStatus: 403, timestampUnit: 'ms' })
 */
export function resolveProfile(options: ProfileOptions = {}): Profile {
  const result = Profile.safeParse(options)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(profile)'}: ${issue.message}`)
  throw new Error(`Invalid mock profile. ${problems.join('; ')}`)
}
