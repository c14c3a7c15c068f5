import { listPersonas } from '../client/api.js'
import { numbersAsStrings } from './bulk-probes.js'
import type { Check } from './check.js'
import { mockErrorTexts } from '../profile/error-texts.js'
import { documentDialect, documentGeneration, errorsGeneration, fastApiEra } from '../profile/generation.js'
import { serverOpenApi } from '../drift/openapi-source.js'
import { pydanticOf } from '../profile/detection.js'
import type { ErrorTexts } from '../profile/settings.js'
import { detect, observe, undetermined } from './profile-support.js'

const NULLABILITY_WORDS = {
  'anyOf-null': 'as anyOf [X, null]',
  nullable: 'with nullable: true',
  plain: 'as plain X (no null)',
}

/** The generation the server speaks, and the texts it refuses with: reported and written, never failed. */
export const generationChecks: Check[] = [
  {
    id: 'profile.generation',
    kind: 'dialect',
    description: 'the pydantic (1, 2.12, 2.13) and FastAPI generation, from the 422 bodies and /openapi.json',
    async run(scope) {
      const { ctx } = scope
      const { document } = await serverOpenApi(ctx)
      const dialect = document ? documentDialect(document) : undefined
      const era = fastApiEra({
        missingCredentialsStatus: ctx.facts.missingCredentialsStatus?.value as number | undefined,
        dialect,
      })
      if (era) observe(scope, 'fastapi', era)
      if (dialect)
        observe(
          scope,
          'openapi',
          `${dialect.openapi}, optional fields written ${NULLABILITY_WORDS[dialect.nullability]}`,
        )
      const strings = await numbersAsStrings(ctx)
      if (strings)
        observe(
          scope,
          'a number sent for a string',
          strings.coerced ? 'taken as its string (pydantic 1)' : 'refused with 422',
        )
      const seen = ctx.facts.validationErrors
      const fromErrors = errorsGeneration(seen.flatMap(({ entries }) => entries))
      const fromDocument = dialect && documentGeneration(dialect)
      if (fromErrors && fromDocument && fromErrors !== fromDocument)
        scope.warn(`the 422 bodies are pydantic ${fromErrors}'s, /openapi.json pydantic ${fromDocument}'s`)
      const source = fromErrors
        ? `the entries of ${seen.length} 422 answers, e.g. ${seen[0]!.source}`
        : 'GET /openapi.json'
      const generation = fromErrors ?? fromDocument
      if (!generation) undetermined(scope, 'pydantic', 'neither a 422 body nor /openapi.json showed it')
      if (generation === '1') return detect(scope, 'pydantic', '1', source)
      const uuid = ctx.facts.uuidErrorMessage
      const minor = uuid && pydanticOf(uuid.message)
      if (!uuid || !minor)
        undetermined(
          scope,
          'pydantic',
          `pydantic 2, but ${uuid ? `an unknown UUID message: ${uuid.message}` : 'no UUID error message was seen'}`,
        )
      detect(scope, 'pydantic', minor, `${source}; the UUID message of ${uuid.source}`)
    },
  },
  {
    id: 'profile.team-id-omitted',
    kind: 'choice',
    description:
      'what a list of personas without team_id answers: the token\'s team (the mock), or 400 ("described as required")',
    async run(scope) {
      const { ctx } = scope
      const answer = await ctx.send(listPersonas(ctx, { team_id: undefined, limit: 1 }))
      const detail = (answer.json as { detail?: unknown } | undefined)?.detail
      const shown = answer.status === 200 ? "the token's team" : `${answer.status} ${JSON.stringify(detail)}`
      observe(scope, 'team_id omitted', shown)
      if (answer.status === 400) ctx.recordErrorText('teamRequired', answer)
      if (answer.status !== 200)
        scope.warn(`without team_id the server answers ${shown}; the mock lists the token's team`)
      if (!ctx.credentials.admin) return
      // A super admin token has no team: the answer names what is missing.
      const admin = await ctx.send(listPersonas(ctx, { team_id: undefined, limit: 1 }, ctx.credentials.admin))
      if (admin.status === 400) ctx.recordErrorText('teamRequired', admin)
    },
  },
  {
    id: 'profile.error-texts',
    kind: 'choice',
    description: "the detail texts of the 400/401/403/404/409 answers, next to the mock's",
    async run(scope) {
      const { ctx } = scope
      if (ctx.facts.errorTexts.size === 0) undetermined(scope, 'errorTexts', 'no refusal with a detail text was seen')
      const mock = mockErrorTexts(Number(ctx.facts.missingCredentialsStatus?.value ?? 401))
      const texts: ErrorTexts = {}
      for (const [situation, { detail, status }] of ctx.facts.errorTexts) {
        if (situation === 'wrongScheme') observe(scope, 'error text: wrong scheme', detail)
        else texts[situation] = detail
        if (mock[situation] !== detail)
          scope.warn(
            `${situation}: the server says ${JSON.stringify(detail)}, the mock ${JSON.stringify(mock[situation])}`,
          )
        if (situation === 'teamForbidden' && status !== 403)
          observe(scope, "another team's personas", `answered ${status}, not 403`)
      }
      detect(
        scope,
        'errorTexts',
        texts,
        `the refusals the auth, errors and bulk checks saw (${ctx.facts.errorTexts.size})`,
      )
    },
  },
]
